// The REST bodies the CLI reads (spec sections 2.2 to 2.7), as the CLI sees them.

export type SiteStatus = 'pending_payment' | 'queued' | 'crawling' | 'crawl_failed' | 'pending_review' | 'live' | 'rejected';
export type Plan = 'basic' | 'featured' | 'sponsored' | 'pro';
export type PaymentReason = 'no_membership' | 'quota_exceeded' | 'plan_not_covered' | 'payment_pending';

export interface SubmitRequest {
  name: string;
  url: string;
  email?: string;
  plan?: Plan;
}

/** 201 body of a submit. */
export interface QueuedResponse {
  site_id: string;
  status: 'queued';
  via: 'membership';
  quota: { used_today: number; daily_limit: number };
}

/** 402 body of a submit; also the detail read of an unpaid submission. */
export interface PendingPaymentRecord {
  site_id: string;
  name: string;
  url: string;
  status: 'pending_payment';
  plan: Plan;
  checkout_url: string;
  expires_at: string;
  submitted_at: string;
  reason: PaymentReason;
}

/** Detail read and list item of a submission past payment. */
export interface SiteRecord {
  site_id: string;
  name: string;
  url: string;
  status: Exclude<SiteStatus, 'pending_payment'>;
  is_feature: boolean;
  is_sponsor: boolean;
  submitted_at: string;
  live_url?: string;
  /** Only when status is crawl_failed: the kind of failure (code) and its words (message). */
  crawl_error?: { code: string; message: string };
}

export type SiteDetail = SiteRecord | PendingPaymentRecord;

export interface ListEnvelope {
  sites: SiteRecord[];
  total?: number;
  limit: number;
  offset: number;
}

export const terminalStatuses: ReadonlySet<SiteStatus> = new Set(['live', 'rejected', 'crawl_failed']);
