// The REST bodies the CLI reads (docs/contract.md, "Resources"), as the server declares
// them: types only, inferred from the one schema of each body (src/submissions/record-schemas.ts).
import type { z } from 'zod';
import type { submitInputSchema } from '../submissions/submit-input';
import type {
  PaymentReason,
  PendingRecord,
  QueuedResponse,
  SiteList,
  SiteRecord,
  SubmissionRecord,
} from '../submissions/record-schemas';
import type { PlanName } from '../catalog/plans';
import type { editInputSchema } from '../submissions/edit-input';
import type { categoryListSchema } from '../categories/category-schemas';

export type { PaymentReason, QueuedResponse, SiteRecord };

/** Every status a submission can show: a site record's, or pending_payment before payment. */
export type SiteStatus = SiteRecord['status'] | PendingRecord['status'];
export type Plan = PlanName;

/** The submit body as the CLI sends it (plan may be left out: the server defaults it). */
export type SubmitRequest = z.input<typeof submitInputSchema>;

/** 402 body of a submit; also the detail read of an unpaid submission. */
export type PendingPaymentRecord = PendingRecord;

/** Detail read: a site record or a pending-payment record. */
export type SiteDetail = SubmissionRecord;

export type ListEnvelope = SiteList;

/** The body of an edit of a live tool (PATCH /sites/{id}). */
export type EditRequest = z.input<typeof editInputSchema>;

/** GET /categories. */
export type CategoryList = z.output<typeof categoryListSchema>;

export const terminalStatuses: ReadonlySet<SiteStatus> = new Set(['live', 'rejected', 'crawl_failed']);

/**
 * A domain of the account, the fields the CLI reads (the server's schema is src/domains/domain-record.ts, which
 * also holds its SQL, so the CLI may not import it: .dependency-cruiser.cjs cli-is-a-client).
 */
export interface DomainRecord {
  domain: string;
  status: 'pending' | 'verified';
  token: string;
  method: 'dns' | 'http' | 'email' | null;
  verified_at: string | null;
  expires_at: string | null;
  failing_since: string | null;
  lapses_at: string | null;
  email_code: { sent_to: string; expires_at: string; tries_left: number } | null;
  methods: {
    dns: { name: string; type: 'TXT'; value: string };
    http: { url: string; body: string };
    email: { address_domain: string };
  };
}

/** The verify body (src/domains/domain-input.ts). */
export type VerifyDomainRequest =
  | { method: 'dns' }
  | { method: 'http'; port?: number }
  | { method: 'email'; email: string }
  | { method: 'email'; code: string };
