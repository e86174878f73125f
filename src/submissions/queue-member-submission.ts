import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { isUniqueViolation, queryRows } from '../db/client';
import { planFlags } from '../catalog/plans';
import type { PlannedSubmitInput } from './submit-input';
import type { QueuedResponse } from './record-schemas';
import { conflictFor } from './already-submitted';
import { dispatchCrawl } from './dispatch-crawl';

interface Args {
  input: PlannedSubmitInput;
  canonicalUrl: string;
  normalizedName: string;
  day: string;
  dailyLimit: number;
  /** An unpaid record for this URL that the member submission replaces, keeping its site_id. */
  pending?: { siteId: string; checkoutSessionId: string };
}

/**
 * The membership path in ONE statement: take a unit of today's quota only while used < limit (the row
 * lock of ON CONFLICT DO UPDATE serialises concurrent submits), insert the queued site only if the unit was
 * taken, and drop the replaced pending record. A unique violation rolls the whole statement back, quota
 * included. Returns undefined when the quota ran out meanwhile.
 */
export async function queueMemberSubmission(deps: Deps, actor: Actor, a: Args): Promise<QueuedResponse | undefined> {
  const siteId = a.pending?.siteId ?? crypto.randomUUID();
  const { isFeature } = planFlags(a.input.plan);
  let rows: Array<{ used: number | null; site_id: string | null }>;
  try {
    rows = await queryRows(
      deps.db,
      sql`WITH quota AS (
          INSERT INTO quota_usage (account_id, day, used) VALUES (${actor.accountId}::uuid, ${a.day}::date, 1)
          ON CONFLICT (account_id, day) DO UPDATE SET used = quota_usage.used + 1
            WHERE quota_usage.used < ${a.dailyLimit}
          RETURNING used
        ), site AS (
          INSERT INTO sites (id, account_id, name, url, canonical_url, normalized_name, status, via, plan, email, is_feature, mcp_url)
          SELECT ${siteId}::uuid, ${actor.accountId}::uuid, ${a.input.name}::text, ${a.input.url}::text, ${a.canonicalUrl}::text,
            ${a.normalizedName}::text, 'queued', 'membership', ${a.input.plan}::text, ${a.input.email ?? null}::text, ${isFeature}::boolean,
            ${a.input.mcp_url ?? null}::text
          FROM quota
          RETURNING id
        ), categorised AS (
          -- Categories checked by submitSite; one deleted meanwhile is left out rather than failing the submit.
          INSERT INTO site_categories (site_id, category_slug)
          SELECT site.id, c.slug FROM site
          JOIN categories c ON c.slug IN (SELECT jsonb_array_elements_text(${JSON.stringify(a.input.categories ?? [])}::jsonb))
        ), replaced AS (
          DELETE FROM pending_submissions
          WHERE id = ${a.pending?.siteId ?? null}::uuid AND account_id = ${actor.accountId} AND EXISTS (SELECT 1 FROM site)
        )
        SELECT (SELECT used FROM quota) AS used, (SELECT id FROM site) AS site_id`,
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw await conflictFor(deps.db, actor, a, deps.origin);
    throw error;
  }
  const row = rows[0];
  if (!row?.site_id || row.used === null) return undefined;
  dispatchCrawl(deps, siteId);
  if (a.pending) deps.defer(deps.payments.expireCheckout(a.pending.checkoutSessionId));
  return {
    site_id: siteId,
    status: 'queued',
    via: 'membership',
    quota: { used_today: Number(row.used), daily_limit: a.dailyLimit },
  };
}
