import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { dbStyleTimestamp, isoTimestamp } from '../db/sql-format';
import { getAccount, type AccountView } from '../accounts/accounts';
import { dailyLimitFor, isMembershipActive, utcDay } from '../accounts/memberships';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import type { HistoryStep, QueuePosition } from './record-schemas';
import { progressColumns, toHistory, toQueue, type ProgressRow } from './progress';
import { editRecordColumns, withEditFields, type EditColumns, type LastEdit, type PendingEdit } from './edit-record';
import type { PendingState } from '../catalog/payment-states';

/** One line of the account's submissions: a site past payment or an unpaid/refunded pending record. */
export interface SubmissionLine {
  site_id: string;
  name: string;
  url: string;
  status: string;
  plan: string;
  submitted_at: string;
  live_url?: string;
  checkout_url?: string;
  expires_at?: string;
  note?: string;
  /** A site's history and queue position, as its detail read has them (docs/submission-progress.md). */
  history?: HistoryStep[];
  queue?: QueuePosition;
  /** A live tool's edit waiting for an editor, and the outcome of the last decided one (as on the site record). */
  pending_edit?: PendingEdit;
  last_edit?: LastEdit;
}

export interface AccountOverview {
  account: AccountView;
  membership_active: boolean;
  quota: { day: string; used_today: number; daily_limit: number };
  submissions: SubmissionLine[];
}

/** Newest submissions shown on the page; the full history is in the API (GET /api/v1/sites). */
export const OVERVIEW_SUBMISSIONS = 50;

/** What the account page shows: membership, today's quota use (UTC day) and recent submissions. */
export async function getAccountOverview(deps: Deps, accountId: string): Promise<AccountOverview> {
  const now = deps.now();
  const day = utcDay(now);
  const [account, quota, sites, pending] = await Promise.all([
    getAccount(deps, accountId),
    queryRows<{ used: number }>(
      deps.db,
      sql`SELECT used FROM quota_usage WHERE account_id = ${accountId} AND day = ${day}::date`,
    ),
    queryRows<SiteLineRow>(
      deps.db,
      sql`SELECT s.id AS site_id, s.name, s.url, s.status, s.plan, s.live_url, s.status_note, s.crawl_error_kind, s.crawl_error_http_status,
            ${dbStyleTimestamp(sql`s.submitted_at`)} AS submitted_at, ${progressColumns}, ${editRecordColumns}
          FROM sites s WHERE s.account_id = ${accountId}
          ORDER BY s.submitted_at DESC, s.id DESC LIMIT ${OVERVIEW_SUBMISSIONS}`,
    ),
    queryRows<PendingLineRow>(
      deps.db,
      sql`SELECT p.id AS site_id, p.name, p.url, p.plan, p.state, p.state_note, p.checkout_url,
            ${isoTimestamp(sql`p.expires_at`)} AS expires_at, ${dbStyleTimestamp(sql`p.submitted_at`)} AS submitted_at
          FROM pending_submissions p WHERE p.account_id = ${accountId}
          ORDER BY p.submitted_at DESC, p.id DESC LIMIT ${OVERVIEW_SUBMISSIONS}`,
    ),
  ]);
  const membership = {
    tier: account.tier,
    status: account.membership_status,
    periodEnd: account.current_period_end ? new Date(account.current_period_end) : null,
  };
  const lines = [...sites.map(siteLine), ...pending.map((p) => pendingLine(p, now))]
    .sort((a, b) => (a.submitted_at < b.submitted_at ? 1 : a.submitted_at > b.submitted_at ? -1 : 0))
    .slice(0, OVERVIEW_SUBMISSIONS);
  return {
    account,
    membership_active: isMembershipActive(membership, now),
    quota: {
      day,
      used_today: Number(quota[0]?.used ?? 0),
      daily_limit: dailyLimitFor(account.tier, deps.config.dailyLimits),
    },
    submissions: lines,
  };
}

interface SiteLineRow extends ProgressRow, EditColumns {
  site_id: string;
  name: string;
  url: string;
  status: string;
  plan: string;
  live_url: string | null;
  status_note: string | null;
  crawl_error_kind: string | null;
  crawl_error_http_status: number | null;
  submitted_at: string;
}

interface PendingLineRow {
  site_id: string;
  name: string;
  url: string;
  plan: string;
  state: PendingState;
  state_note: string | null;
  checkout_url: string;
  expires_at: string;
  submitted_at: string;
}

function siteLine(row: SiteLineRow): SubmissionLine {
  const line: SubmissionLine = {
    site_id: row.site_id,
    name: row.name,
    url: row.url,
    status: row.status,
    plan: row.plan,
    submitted_at: row.submitted_at,
  };
  if (row.status === 'live' && row.live_url) line.live_url = row.live_url;
  if (row.status === 'rejected' && row.status_note) line.note = row.status_note;
  // The same words as the site record's crawl_error: the kind of failure, never the operator's detail.
  if (row.status === 'crawl_failed')
    line.note = publicCrawlError(row.crawl_error_kind, row.crawl_error_http_status).message;
  line.history = toHistory(row);
  const queue = toQueue(row);
  if (queue) line.queue = queue;
  return withEditFields(line, row);
}

/** Unpaid records show their checkout link while it is usable; refunded ones read as rejected, with why. */
function pendingLine(row: PendingLineRow, now: Date): SubmissionLine {
  const base = { site_id: row.site_id, name: row.name, url: row.url, plan: row.plan, submitted_at: row.submitted_at };
  if (row.state === 'refunded') {
    return {
      ...base,
      status: 'rejected',
      note: row.state_note ?? 'The payment could not be applied and was refunded.',
    };
  }
  const usable = row.state === 'open' && new Date(row.expires_at) > now;
  return usable
    ? { ...base, status: 'pending_payment', checkout_url: row.checkout_url, expires_at: row.expires_at }
    : {
        ...base,
        status: 'pending_payment',
        expires_at: row.expires_at,
        note: "The checkout link has expired; the submission's page gives a fresh one.",
      };
}
