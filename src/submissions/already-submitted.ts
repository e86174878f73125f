import { sql } from 'drizzle-orm';
import type { Actor } from '../accounts/actor';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';

/** The record a submit or an edit met: who holds it, which key matched, and its public page when it is live. */
export interface ExistingListing {
  siteId: string;
  accountId: string;
  /** The address matched (else the name did). */
  field?: 'url' | 'name';
  /** The slug of its public page, when it is live. */
  liveSlug?: string | null;
}

/**
 * The words of a duplicate, for every surface: the web form links `link.path`, the API, MCP and the CLI name it as
 * an absolute URL. A listing of someone else's that is not live stays anonymous (reference 2.7).
 */
export function duplicateWords(d: DuplicateDetails): { lead: string; link?: { text: string; path: string } } {
  const what = d.field === 'url' ? 'this address' : 'this name';
  if (d.ownSiteId)
    return {
      lead: `You already submitted ${what}:`,
      link: { text: 'see your submission', path: `/account/submissions/${d.ownSiteId}` },
    };
  if (d.liveSlug)
    return {
      lead: `A tool with ${what} is already listed:`,
      link: { text: 'see its page', path: `/tools/${d.liveSlug}` },
    };
  return { lead: `A tool with ${what} has already been submitted by someone else.` };
}

/** 409 already_submitted naming the listing met (its page), as the web form does; the id only to its owner (reference 2.7). */
export function alreadySubmitted(actor: Actor, existing: ExistingListing, origin: string): ServiceError {
  const own = existing.accountId === actor.accountId;
  const details: DuplicateDetails = {
    field: existing.field ?? 'url',
    ...(own ? { ownSiteId: existing.siteId } : existing.liveSlug ? { liveSlug: existing.liveSlug } : {}),
  };
  const words = duplicateWords(details);
  const message = words.link ? `${words.lead} ${words.link.text} at ${origin}${words.link.path}` : words.lead;
  return new ServiceError('already_submitted', message, own ? { site_id: existing.siteId } : {});
}

/** After a unique violation (a concurrent submit won), find the winner to answer 409 precisely. */
export async function conflictFor(
  db: Db,
  actor: Actor,
  target: { canonicalUrl: string; normalizedName: string },
  origin: string,
): Promise<ServiceError> {
  const [row] = await queryRows<{ id: string; account_id: string; slug: string | null; same_url: boolean }>(
    db,
    sql`SELECT id, account_id, CASE WHEN status = 'live' THEN slug END AS slug, canonical_url = ${target.canonicalUrl} AS same_url
        FROM sites WHERE (canonical_url = ${target.canonicalUrl} OR normalized_name = ${target.normalizedName}) AND withdrawn_at IS NULL
        ORDER BY (account_id = ${actor.accountId}) DESC, (canonical_url = ${target.canonicalUrl}) DESC LIMIT 1`,
  );
  return row
    ? alreadySubmitted(
        actor,
        { siteId: row.id, accountId: row.account_id, field: row.same_url ? 'url' : 'name', liveSlug: row.slug },
        origin,
      )
    : new ServiceError('already_submitted', 'A tool with this address or name has already been submitted.');
}

/** What a person is told about a duplicate on /submit: which field matched, and where to look. */
export interface DuplicateDetails {
  /** The address matched (else the name did). */
  field: 'url' | 'name';
  /** The caller's own submission with this address or name. */
  ownSiteId?: string;
  /** The public page of someone else's live tool with this address or name. */
  liveSlug?: string;
}

/**
 * After submit answered already_submitted: the record it met, found by the same two unique keys (the caller's
 * own first, as conflictFor orders them). A live tool is public anyway; anyone else's record that is not live
 * stays as anonymous as the 409 itself. One statement.
 */
export async function describeDuplicate(
  db: Db,
  actor: Actor,
  target: { canonicalUrl: string; normalizedName: string },
): Promise<DuplicateDetails> {
  const [row] = await queryRows<{ id: string; own: boolean; slug: string | null; same_url: boolean }>(
    db,
    sql`SELECT x.id, x.account_id = ${actor.accountId} AS own, CASE WHEN x.status = 'live' THEN x.slug END AS slug,
          x.canonical_url = ${target.canonicalUrl} AS same_url
        FROM (
          SELECT s.id, s.account_id, s.status, s.slug, s.canonical_url FROM sites s WHERE s.canonical_url = ${target.canonicalUrl} AND s.withdrawn_at IS NULL
          UNION ALL
          SELECT s.id, s.account_id, s.status, s.slug, s.canonical_url FROM sites s WHERE s.normalized_name = ${target.normalizedName} AND s.withdrawn_at IS NULL
        ) x
        ORDER BY (x.account_id = ${actor.accountId}) DESC, (x.canonical_url = ${target.canonicalUrl}) DESC LIMIT 1`,
  );
  if (!row) return { field: 'url' };
  const details: DuplicateDetails = { field: row.same_url ? 'url' : 'name' };
  if (row.own) details.ownSiteId = row.id;
  else if (row.slug) details.liveSlug = row.slug;
  return details;
}
