// The statements of a round (docs/health.md "Schedule"): claim the due tools in one indexed statement, write one
// check's record (and the listing's hidden flag) in one more.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { HEALTH_CLAIM_LEASE_SECONDS, type HealthNotice, type HealthState } from '../catalog/health-states';
import type { HealthAfter, HealthBefore } from './health-rules';

/** A claimed tool: what the check needs, what the rules need, and what a notice names. */
export interface ClaimedTool {
  siteId: string;
  name: string;
  url: string;
  liveUrl: string | null;
  crawledUrl: string | null;
  /** The listing's MCP endpoint, probed after the page (docs/mcp-servers.md); null when it has none. */
  mcpUrl: string | null;
  ownerEmail: string | null;
  /** The account's choice about health mails, and the token of its opt-out link. */
  healthMails: boolean;
  healthMailToken: string;
  isFeature: boolean;
  isSponsor: boolean;
  listed: { title: string | null; description: string | null; image: string | null };
  /** The record's last_checked_at as read (the write is conditional on it: a duplicate delivery writes nothing). */
  lastCheckedAt: string | null;
  before: HealthBefore;
}

interface ClaimRow {
  site_id: string;
  name: string;
  url: string;
  live_url: string | null;
  crawled_url: string | null;
  mcp_url: string | null;
  owner_email: string | null;
  health_mails: boolean;
  health_mail_token: string;
  is_feature: boolean;
  is_sponsor: boolean;
  listed_title: string | null;
  listed_description: string | null;
  listed_image: string | null;
  health_hidden: boolean;
  state: HealthState;
  last_checked_at: string | null;
  last_ok_at: string | null;
  failing_since: string | null;
  notified_state: HealthNotice;
  notified_on: string | null;
  hidden_on: string | null;
  etag: string | null;
  last_modified: string | null;
  seen_title: string | null;
  seen_description: string | null;
  seen_image: string | null;
}

/**
 * Claims tools in one statement: the due ones (site_health_due_idx, oldest due first, at most `limit`), or the named
 * live ones (an operator's explicit request, due or not). A claim moves next_check_at a lease ahead, so a round that
 * dies leaves its unchecked tools due again after the lease while the checked ones are due tomorrow: a resumed round
 * checks nothing twice. SKIP LOCKED lets two rounds run at once without sharing a tool.
 */
export async function claimTools(
  db: Db,
  now: Date,
  which: { limit: number } | { siteIds: string[] },
): Promise<ClaimedTool[]> {
  const rows = await queryRows<ClaimRow>(db, claimStatement(now, which));
  return rows.map(toClaimed);
}

/** The claim as one statement (exported so the benchmark can EXPLAIN exactly what a round runs). */
export function claimStatement(now: Date, which: { limit: number } | { siteIds: string[] }): SQL {
  const pick: SQL =
    'limit' in which
      ? sql`SELECT h.site_id FROM site_health h WHERE h.next_check_at IS NOT NULL AND h.next_check_at <= ${now.toISOString()}::timestamptz
          ORDER BY h.next_check_at LIMIT ${which.limit} FOR UPDATE SKIP LOCKED`
      : sql`SELECT h.site_id FROM site_health h WHERE h.site_id = ANY (${`{${which.siteIds.join(',')}}`}::uuid[]) AND h.next_check_at IS NOT NULL
          FOR UPDATE SKIP LOCKED`;
  return sql`WITH due AS (${pick}),
      claimed AS (
        UPDATE site_health h SET next_check_at = ${now.toISOString()}::timestamptz + make_interval(secs => ${HEALTH_CLAIM_LEASE_SECONDS})
        WHERE h.site_id = ANY (ARRAY(SELECT site_id FROM due)) RETURNING h.*
      )
      SELECT c.site_id, s.name, s.url, s.live_url, s.metadata->>'finalUrl' AS crawled_url, s.mcp_url, coalesce(s.email, a.email) AS owner_email,
        a.health_mails, a.health_mail_token::text AS health_mail_token,
        s.is_feature, s.is_sponsor, s.metadata->>'title' AS listed_title, s.metadata->>'description' AS listed_description,
        s.metadata->>'imageSource' AS listed_image, s.health_hidden, c.state,
        ${isoTimestamp(sql`c.last_checked_at`)} AS last_checked_at, ${isoTimestamp(sql`c.last_ok_at`)} AS last_ok_at,
        ${isoTimestamp(sql`c.failing_since`)} AS failing_since, c.notified_state, c.notified_on::text AS notified_on,
        c.hidden_on::text AS hidden_on, c.etag, c.last_modified, c.seen_title, c.seen_description, c.seen_image
      FROM claimed c JOIN sites s ON s.id = c.site_id JOIN accounts a ON a.id = s.account_id
      WHERE s.status = 'live'`;
}

const date = (text: string | null) => (text ? new Date(text) : null);

function toClaimed(row: ClaimRow): ClaimedTool {
  return {
    siteId: row.site_id,
    name: row.name,
    url: row.url,
    liveUrl: row.live_url,
    crawledUrl: row.crawled_url,
    mcpUrl: row.mcp_url ?? null,
    ownerEmail: row.owner_email,
    healthMails: Boolean(row.health_mails),
    healthMailToken: row.health_mail_token,
    isFeature: Boolean(row.is_feature),
    isSponsor: Boolean(row.is_sponsor),
    listed: { title: row.listed_title, description: row.listed_description, image: row.listed_image },
    lastCheckedAt: row.last_checked_at,
    before: {
      state: row.state,
      lastOkAt: date(row.last_ok_at),
      failingSince: date(row.failing_since),
      notifiedState: row.notified_state,
      notifiedOn: row.notified_on,
      hiddenOn: row.hidden_on,
      hidden: Boolean(row.health_hidden),
      etag: row.etag,
      lastModified: row.last_modified,
      seen: { title: row.seen_title, description: row.seen_description, image: row.seen_image },
    },
  };
}

const ts = (at: Date | null) => (at ? sql`${at.toISOString()}::timestamptz` : sql`NULL::timestamptz`);

/**
 * Writes one check in one statement: the record, the next check (tomorrow at the tool's slot; none once the site is
 * not live), and the listing's hidden flag when it changes. Conditional on the record being as claimed, so a second
 * delivery of the same check writes nothing. Returns whether it wrote.
 */
export async function recordCheck(db: Db, tool: ClaimedTool, after: HealthAfter, now: Date): Promise<boolean> {
  const [row] = await queryRows<{ written: number }>(
    db,
    sql`WITH h AS (
        UPDATE site_health SET state = ${after.state}, reason_kind = ${after.reasonKind}, http_status = ${after.httpStatus},
          moved_to = ${after.movedTo}, last_checked_at = ${ts(now)}, last_ok_at = ${ts(after.lastOkAt)},
          failing_since = ${ts(after.failingSince)}, etag = ${after.etag}, last_modified = ${after.lastModified},
          seen_title = ${after.seen.title}, seen_description = ${after.seen.description}, seen_image = ${after.seen.image},
          hidden_at = CASE WHEN ${after.hidden} THEN coalesce(hidden_at, ${ts(now)}) END, hidden_on = ${after.hiddenOn}::date,
          notified_state = ${after.notifiedState}, notified_on = ${after.notifiedOn}::date,
          next_check_at = CASE WHEN next_check_at IS NULL THEN NULL ELSE health_next_check(site_id, ${ts(now)}) END
        WHERE site_id = ${tool.siteId}::uuid AND last_checked_at IS NOT DISTINCT FROM ${tool.lastCheckedAt}::timestamptz
        RETURNING site_id
      ),
      listing AS (
        UPDATE sites s SET health_hidden = ${after.hidden} FROM h WHERE s.id = h.site_id AND s.health_hidden <> ${after.hidden}
        RETURNING s.id
      )
      SELECT (SELECT count(*) FROM h)::int AS written, (SELECT count(*) FROM listing)::int AS hidden_changed`,
  );
  return (row?.written ?? 0) > 0;
}
