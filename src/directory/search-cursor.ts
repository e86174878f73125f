import { ServiceError } from '../errors';
import { isUuid } from '../ids';

// The opaque page cursor of directory search: the sort key of the last row shown (keyset pagination),
// so pages neither repeat nor skip rows even while new tools are published between page reads.

/** Which list a cursor pages through: the newest tools, full-text matches, or the typo fallback. */
export type SearchMode = 'newest' | 'text' | 'typo';
const MODE_CODES = { newest: 'n', text: 't', typo: 'y' } as const;

/**
 * Sort key of the last row of a page: its rank tier (./search-plan.ts; null for the newest list), publication
 * time in µs, id; and the list it belongs to. A corrected search (mode typo) also remembers which of its corrections
 * the first page used (`attempt`, from 1), so every page reads the same corrected words.
 */
export interface SearchPosition {
  mode: SearchMode;
  tier: SearchTier | null;
  publishedMicros: string;
  id: string;
  attempt?: number;
}

// At most 16 digits: ±317 years around 1970, always inside Postgres's timestamp range.
const MICROS = /^-?\d{1,16}$/;
/** A rank tier (./search-plan.ts): 0 to 5. */
export type SearchTier = 0 | 1 | 2 | 3 | 4 | 5;
const isTier = (value: unknown): value is SearchTier =>
  value === 0 || value === 1 || value === 2 || value === 3 || value === 4 || value === 5;
/** How many corrections a typo search tries at most (./search-typo.ts). */
const MAX_ATTEMPT = 9;

/** FNV-1a of the normalised query: a cursor from one query cannot be replayed against another. */
export function queryFingerprint(query: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < query.length; i++) {
    hash ^= query.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

export function encodeCursor(query: string, position: SearchPosition): string {
  const payload = JSON.stringify({
    v: 2,
    q: queryFingerprint(query),
    m: MODE_CODES[position.mode],
    r: position.tier,
    t: position.publishedMicros,
    i: position.id,
    ...(position.attempt !== undefined && { a: position.attempt }),
  });
  return btoa(payload).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes a cursor made by encodeCursor for this same query, or throws invalid_request naming `cursor`. */
export function decodeCursor(query: string, cursor: string): SearchPosition {
  const invalid = (why: string) =>
    new ServiceError('invalid_request', `cursor ${why}; pass next_cursor from the previous page unchanged.`, {
      field: 'cursor',
    });
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw invalid('is malformed');
  let data: unknown;
  try {
    data = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    throw invalid('is malformed');
  }
  const d = data as { v?: unknown; q?: unknown; m?: unknown; r?: unknown; t?: unknown; i?: unknown; a?: unknown };
  const mode = (Object.keys(MODE_CODES) as SearchMode[]).find((m) => MODE_CODES[m] === d.m);
  const valid =
    d.v === 2 &&
    typeof d.q === 'string' &&
    mode !== undefined &&
    (mode === 'newest' ? d.r === null : isTier(d.r)) &&
    typeof d.t === 'string' &&
    MICROS.test(d.t) &&
    typeof d.i === 'string' &&
    isUuid(d.i) &&
    // A typo cursor says which correction its pages read (cursors made before corrections were numbered: the first).
    (d.a === undefined ||
      (mode === 'typo' && Number.isInteger(d.a) && (d.a as number) >= 1 && (d.a as number) <= MAX_ATTEMPT));
  if (!valid) throw invalid('is malformed');
  if (d.q !== queryFingerprint(query)) throw invalid('belongs to a different query');
  return {
    mode: mode!,
    tier: d.r as SearchTier | null,
    publishedMicros: d.t as string,
    id: d.i as string,
    ...(mode === 'typo' && { attempt: (d.a as number | undefined) ?? 1 }),
  };
}
