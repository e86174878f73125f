import { sql, type SQL } from 'drizzle-orm';
import { isUuid } from '../ids';
import { sortAt } from './search-keys';

// The order the sitemap pages tools in: listing time (sites.listed_at), then id. It is the key of the partial
// index sites_live_listing_idx (drizzle/0025_search_derived_columns.sql), so a child sitemap is one range scan of
// that index, and new tools are appended at the end: publishing moves no tool from one child to another
// (docs/seo.md).

/** The sort key of a live tool, as in that index (the same key the directory's newest-first listing uses). */
export const listedAt = sortAt;

/** A position in that order: publication time in µs since the epoch and the tool's id. */
export interface ListedKey {
  micros: string;
  id: string;
}

// At most 16 digits: ±317 years around 1970, always inside PostgreSQL's timestamp range.
const KEY = /^(-?\d{1,16})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** `{µs}_{uuid}`: URL-safe as it is, so a child sitemap's address carries it in its query. */
export const encodeListedKey = (key: ListedKey) => `${key.micros}_${key.id}`;

/** A key made by encodeListedKey, or undefined for anything else (a forged one can never fail a cast). */
export function decodeListedKey(text: string | undefined): ListedKey | undefined {
  const match = text === undefined ? null : KEY.exec(text);
  if (!match || !isUuid(match[2]!)) return undefined;
  return { micros: match[1]!, id: match[2]! };
}

/** The database's own text of a row's key (exact to the microsecond; a JS Date would round to ms). */
export const listedKeyText = sql`(extract(epoch FROM ${listedAt}) * 1000000)::bigint::text || '_' || s.id::text`;

/** `(listedAt, id) {op} key` for a keyset bound. */
export const compareListed = (op: '>=' | '<', key: ListedKey): SQL =>
  sql`(${listedAt}, s.id) ${sql.raw(op)} (('epoch'::timestamptz + ${key.micros}::bigint * interval '1 microsecond'), ${key.id}::uuid)`;
