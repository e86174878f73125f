import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { isUniqueViolation, queryRows } from '../db/client';
import { siteRecordColumns, toSiteRecord, type SiteRow } from '../submissions/records';
import type { SiteRecord } from '../submissions/record-schemas';
import { nextFreeSlug, slugify } from './slug';
import { notifyPublished } from './notify';
import { decisionApplies } from './decision-conditions';

const MAX_SLUG_TRIES = 8;

/**
 * Makes a site live in one conditional statement: a unique readable slug (kept on republish),
 * live_url = origin + /tools/{slug}, published_at (first publication), and the notification mail.
 * Two sites racing for one slug: the loser's statement fails on the unique index and retries with the
 * next free slug. Returns undefined when the site was not in a publishable state.
 */
export async function publishSite(deps: Deps, siteId: string, opts: { note: string }): Promise<SiteRecord | undefined> {
  for (let attempt = 0; attempt < MAX_SLUG_TRIES; attempt++) {
    const slug =
      attempt < MAX_SLUG_TRIES - 1
        ? await freeSlugFor(deps, siteId)
        : `${await baseSlug(deps, siteId)}-${crypto.randomUUID().slice(0, 6)}`;
    if (slug === undefined) return undefined;
    try {
      const [row] = await queryRows<SiteRow & { notify_email: string | null }>(
        deps.db,
        sql`WITH u AS (
              UPDATE sites s SET status = 'live', slug = COALESCE(s.slug, ${slug}::text),
                live_url = ${deps.origin}::text || '/tools/' || COALESCE(s.slug, ${slug}::text),
                published_at = COALESCE(s.published_at, now()), reviewed_at = now(), review_reason = NULL,
                status_note = ${opts.note}::text
              WHERE s.id = ${siteId}::uuid AND ${decisionApplies.approve}
              RETURNING s.*
            )
            SELECT ${siteRecordColumns}, COALESCE(s.email, a.email) AS notify_email
            FROM u s JOIN accounts a ON a.id = s.account_id`,
      );
      if (!row) return undefined;
      const record = toSiteRecord(row);
      await notifyPublished(deps, {
        to: row.notify_email,
        name: row.name,
        url: row.url,
        liveUrl: record.live_url ?? '',
      });
      return record;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      deps.log.debug('slug taken meanwhile; trying the next', { site_id: siteId, slug });
    }
  }
  throw new Error(`could not find a free slug for site ${siteId}`);
}

async function baseSlug(deps: Deps, siteId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ name: string }>(deps.db, sql`SELECT name FROM sites WHERE id = ${siteId}::uuid`);
  return row ? slugify(row.name) : undefined;
}

/** The site's own slug when it has one, else the first free one among base, base-2, ... */
async function freeSlugFor(deps: Deps, siteId: string): Promise<string | undefined> {
  const base = await baseSlug(deps, siteId);
  if (base === undefined) return undefined;
  const taken = await queryRows<{ slug: string }>(
    deps.db,
    sql`SELECT slug FROM sites WHERE id <> ${siteId}::uuid AND (slug = ${base} OR slug ~ ${`^${base}-[0-9]+$`})`,
  );
  return nextFreeSlug(
    base,
    taken.map((t) => t.slug),
  );
}
