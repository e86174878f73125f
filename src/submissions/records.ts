import { sql } from 'drizzle-orm';
import { dbStyleTimestamp, isoTimestamp } from '../db/sql-format';
import type { SiteStatus } from '../catalog/site-statuses';
import type { PaymentReason, PendingRecord, Refund, SiteRecord } from './record-schemas';
import type { PlanName } from '../catalog/plans';
import { sponsorSlotHeld } from '../directory/sponsor-slot';
import { currentMcpProbe } from '../directory/mcp-record';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import { editRecordColumns, withEditFields, type EditColumns } from './edit-record';
import type { PendingState } from '../catalog/payment-states';
import { WITHDRAWAL_REASON } from '../catalog/site-statuses';
import { verifiedMark, verifiedMethodSql } from '../domains/verified-mark';
import { publicHealth } from '../catalog/health-states';
import { toMcpOwnerView, type StoredMcp } from '../mcp-owner-schema';

type StoredHealth = Parameters<typeof publicHealth>[0] & { site_changed?: boolean };

const NOT_CHECKED: StoredHealth = {
  state: 'unchecked',
  reason_kind: null,
  http_status: null,
  moved_to: null,
  last_checked_at: null,
  last_ok_at: null,
  failing_since: null,
};

// Reading the records of record-schemas.ts from SQL: the columns every read selects and the row -> record mapping.

/**
 * What the last probe of the site's mcp_url found, with its changelog (latest first), as JSON; null before a probe
 * of the current URL (docs/mcp-servers.md). The changelog keeps at most MCP_CHANGELOG_LENGTH rows per site.
 */
const mcpRecordColumn = sql`(SELECT to_jsonb(m) || jsonb_build_object('checked_at', ${isoTimestamp(sql`m.checked_at`)},
     'tools_seen_at', ${isoTimestamp(sql`m.tools_seen_at`)},
     'changelog', (SELECT coalesce(jsonb_agg(jsonb_build_object('changed_at', ${isoTimestamp(sql`c.changed_at`)},
         'added', c.added, 'removed', c.removed, 'changed', c.changed) ORDER BY c.changed_at DESC, c.id DESC), '[]')
       FROM site_mcp_changes c WHERE c.site_id = s.id))
   FROM site_mcp m WHERE m.site_id = s.id AND ${currentMcpProbe}) AS mcp`;

/** Column list shared by every site-record read (one place for the shape). */
export const siteRecordColumns = sql`s.id AS site_id, s.name, s.url, s.status, s.is_feature, ${sponsorSlotHeld} AS is_sponsor,
  ${dbStyleTimestamp(sql`s.submitted_at`)} AS submitted_at, s.live_url, s.crawl_error_kind, s.crawl_error_http_status,
  ${isoTimestamp(sql`s.withdrawn_at`)} AS withdrawn_at, ${editRecordColumns}, ${verifiedMethodSql} AS verified_method,
  (SELECT jsonb_build_object('state', h.state, 'reason_kind', h.reason_kind, 'http_status', h.http_status, 'moved_to', h.moved_to,
     'last_checked_at', h.last_checked_at, 'last_ok_at', h.last_ok_at, 'failing_since', h.failing_since,
     'site_changed', h.last_checked_at IS NOT NULL AND h.state = 'ok' AND h.seen_title IS NOT NULL AND (
       h.seen_title IS DISTINCT FROM s.metadata->>'title' OR h.seen_description IS DISTINCT FROM s.metadata->>'description'
       OR h.seen_image IS DISTINCT FROM s.metadata->>'imageSource'))
   FROM site_health h WHERE h.site_id = s.id) AS health,
  s.metadata->>'finalUrl' AS crawled_url, s.refund_state, s.refund_id, s.refund_amount, s.refund_currency,
  ${isoTimestamp(sql`s.refunded_at`)} AS refunded_at, s.mcp_url, ${mcpRecordColumn}`;

export const pendingRecordColumns = sql`p.id AS site_id, p.name, p.url, p.mcp_url, p.plan, p.checkout_url, p.reason, p.state,
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
  withdrawn_at: string | null;
  verified_method?: string | null;
  /** site_health's columns as JSON (text or parsed, by driver); null before the site was ever live. */
  health?: unknown;
  crawled_url?: string | null;
  refund_state?: 'due' | 'refunded' | null;
  refund_id?: string | null;
  refund_amount?: number | string | null;
  refund_currency?: string | null;
  refunded_at?: string | null;
  mcp_url?: string | null;
  /** site_mcp's row and changes as JSON (text or parsed, by driver); null before a probe of the current URL. */
  mcp?: unknown;
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
  mcp_url?: string | null;
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
  if (row.withdrawn_at) {
    record.rejection_reason = WITHDRAWAL_REASON;
    record.withdrawn_at = row.withdrawn_at;
  }
  Object.assign(record, verifiedMark(row.verified_method));
  const health =
    typeof row.health === 'string'
      ? (JSON.parse(row.health) as StoredHealth)
      : (row.health as StoredHealth | null | undefined);
  // A live tool always has a health: a statement that just published it reads no site_health row yet (the row is
  // written by the same statement's trigger), and that is "unchecked", as the next read says.
  const known = health ?? (row.status === 'live' ? NOT_CHECKED : undefined);
  if (known) {
    record.health = publicHealth(known);
    if (row.status === 'live') record.site_changed = Boolean(known.site_changed);
  }
  if (row.crawled_url) record.crawled_url = row.crawled_url;
  const refund = toRefund(row);
  if (refund) record.refund = refund;
  if (row.mcp_url) {
    record.mcp_url = row.mcp_url;
    const stored = typeof row.mcp === 'string' ? (JSON.parse(row.mcp) as StoredMcp) : (row.mcp as StoredMcp | null);
    record.mcp = toMcpOwnerView(row.mcp_url, stored);
  }
  return withEditFields(record, row);
}

function toRefund(row: SiteRow): Refund | undefined {
  if (row.refund_state === 'due') return { status: 'pending' };
  if (row.refund_state !== 'refunded') return undefined;
  return {
    status: 'refunded',
    ...(row.refund_id && { refund_id: row.refund_id }),
    ...(row.refund_amount != null && { amount: Number(row.refund_amount) }),
    ...(row.refund_currency && { currency: row.refund_currency }),
    ...(row.refunded_at && { refunded_at: row.refunded_at }),
  };
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
    ...(row.mcp_url && { mcp_url: row.mcp_url }),
  };
}

/**
 * A closed unpaid record, as a site record, rejected, with why: a payment that could not be applied and was refunded, or
 * a record the maker's own submission superseded (`superseded: true`; nothing was charged, or a late payment refunded).
 */
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
    ...(row.state === 'superseded' ? { superseded: true as const } : {}),
  };
}
