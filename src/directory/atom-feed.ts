import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { preparedStatement } from '../db/prepared';
import { isoTimestamp } from '../db/sql-format';
import { escapeXml } from './sitemap-xml';
import { shortenDescription } from './tool-record';

// /feed.xml (docs/change-feed.md "Atom"): the newest listings as an Atom 1.0 feed (RFC 4287) for feed readers.
// Names and descriptions are the submitters' words: every value goes through escapeXml, once, here.

/** How many listings the feed carries, newest first. */
export const ATOM_FEED_SIZE = 50;

interface NewestRow {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  listed_at: string;
}

/** Built once per process (src/db/prepared.ts): the listing index's newest-first walk, one page of it. */
const newestListings = preparedStatement<'limit'>(
  (
    p,
  ) => sql`SELECT s.id, s.slug, s.name, s.metadata->>'description' AS description, ${isoTimestamp(sql`s.listed_at`)} AS listed_at
  FROM sites s WHERE s.status = 'live' AND NOT s.health_hidden AND s.slug IS NOT NULL
  ORDER BY s.listed_at DESC, s.id DESC LIMIT ${p('limit')}`,
);

/** The feed's document, for the directory at `origin`. */
export async function atomFeed(deps: Deps, size = ATOM_FEED_SIZE): Promise<string> {
  const rows = await newestListings.rows<NewestRow>(deps.db, { limit: size });
  return atomXml(deps.origin, rows);
}

/** The Atom document of these listings (newest first). An empty directory still has a valid feed. */
export function atomXml(origin: string, rows: readonly NewestRow[]): string {
  const e = escapeXml;
  // The feed changes when its newest listing does; an empty feed names a fixed instant rather than "now".
  const updated = rows[0]?.listed_at ?? '1970-01-01T00:00:00.000Z';
  const entries = rows.map((row) => {
    const page = `${origin}/tools/${encodeURIComponent(row.slug)}`;
    const summary = shortenDescription(row.description, 400);
    return `<entry>
<id>urn:uuid:${e(row.id)}</id>
<title type="text">${e(row.name)}</title>
<link rel="alternate" type="text/html" href="${e(page)}"/>
<published>${e(row.listed_at)}</published>
<updated>${e(row.listed_at)}</updated>
${summary ? `<summary type="text">${e(summary)}</summary>\n` : ''}</entry>
`;
  });
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
<id>${e(`${origin}/feed.xml`)}</id>
<title type="text">tooldir: new listings</title>
<subtitle type="text">The newest AI tools listed in the directory</subtitle>
<link rel="self" type="application/atom+xml" href="${e(`${origin}/feed.xml`)}"/>
<link rel="alternate" type="text/html" href="${e(`${origin}/`)}"/>
<updated>${e(updated)}</updated>
<author><name>tooldir</name></author>
${entries.join('')}</feed>
`;
}
