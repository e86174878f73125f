import { sql } from 'drizzle-orm';
import { dbStyleTimestamp, isoTimestamp } from '../db/sql-format';
import type { SiteStatus } from '../catalog/site-statuses';
import type { PaymentReason, PendingRecord, SiteRecord } from './record-schemas';
import type { PlanName } from '../catalog/plans';
import { sponsorSlotHeld } from '../directory/sponsor-slot';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import { editRecordColumns, withEditFields, type EditColumns } from './edit-record';
import type { PendingState } from '../catalog/payment-states';

// Reading the records of record-schemas.ts from SQL: the columns every read selects and the row -> record mapping.

/** Column list shared by every site-record read (one place for the shape). */
export const siteRecordColumns = sql`s.id AS site_id, s.name, s.url, s.status, s.is_feature, ${sponsorSlotHeld} AS is_sponsor,
  ${dbStyleTimestamp(sql`s.submitted_at`)} AS submitted_at, s.live_url, s.crawl_error_kind, s.crawl_error_http_status,
  ${editRecordColumns}`;

export const pendingRecordColumns = sql`p.id AS site_id, p.name, p.url, p.plan, p.checkout_url, p.reason, p.state,
  p.state_note, p.version, p.checkout_session_id,
  ${isoTimestamp(sql`p.expires_at`)} AS expires_at, ${isoTimestamp(sql`p.submitted_at`)} AS submitted_at,
  ${dbStyleTimestamp(sql`p.submitted_at`)} AS submitted_at_db`;

export interface SiteRow extends EditColumns {
  site_id: string;
  name: string;
  url: string;
  status: SiteStatus;
  is_feature: boolean;
  is_sponsor: boolean;
  submitted_at: string;
  live_url: string | null;
  crawl_error_kind: string | null;
  crawl_error_http_status: number | null;
}

export interface PendingRow {
  site_id: string;
  name: string;
  url: string;
  plan: PlanName;
  checkout_url: string;
  reason: PaymentReason;
  state: PendingState;
  state_note: string | null;
  version: number;
  checkout_session_id: string;
  expires_at: string;
  submitted_at: string;
  submitted_at_db: string;
}

export function toSiteRecord(row: SiteRow): SiteRecord {
  const record: SiteRecord = {
    site_id: row.site_id,
    name: row.name,
    url: row.url,
    status: row.status,
    is_feature: Boolean(row.is_feature),
    is_sponsor: Boolean(row.is_sponsor),
    submitted_at: row.submitted_at,
  };
  if (row.status === 'live' && row.live_url) record.live_url = row.live_url;
  if (row.status === 'crawl_failed')
    record.crawl_error = publicCrawlError(row.crawl_error_kind, row.crawl_error_http_status);
  return withEditFields(record, row);
}

export function toPendingRecord(row: PendingRow): PendingRecord {
  return {
    site_id: row.site_id,
    name: row.name,
    url: row.url,
    status: 'pending_payment',
    plan: row.plan,
    checkout_url: row.checkout_url,
    expires_at: row.expires_at,
    submitted_at: row.submitted_at,
    reason: row.reason,
  };
}

/** A paid submission that could not be applied and was refunded: a site record, rejected, with why. */
export function toRefundedRecord(row: PendingRow): SiteRecord {
  return {
    site_id: row.site_id,
    name: row.name,
    url: row.url,
    status: 'rejected',
    is_feature: false,
    is_sponsor: false,
    submitted_at: row.submitted_at_db,
    rejection_reason: row.state_note ?? 'The payment could not be applied and was refunded.',
  };
}
