import { ServiceError } from '../errors';
import { isUuid } from '../ids';

// The opaque page cursor of directory search: the sort key of the last row shown (keyset pagination),
// so pages neither repeat nor skip rows even while new tools are published between page reads.

/** Which list a cursor pages through: the newest tools, full-text matches, or the typo fallback. */
export type SearchMode = 'newest' | 'text' | 'typo';
const MODE_CODES = { newest: 'n', text: 't', typo: 'y' } as const;

/**
 * Sort key of the last row of a page: relevance score (as Postgres printed it; null for the newest list),
 * publication time in µs, id; and the list it belongs to.
 */
export interface SearchPosition {
  mode: SearchMode;
  score: string | null;
  publishedMicros: string;
  id: string;
}

const SCORE = /^-?\d{1,6}(\.\d{1,12})?(e-?\d{1,2})?$/i;
// At most 16 digits: ±317 years around 1970, always inside Postgres's timestamp range.
const MICROS = /^-?\d{1,16}$/;

/** A score Postgres printed for a real: finite and inside the range `::real` accepts, so no forged cursor can fail the cast. */
const isScore = (text: string) => {
  const n = Number(text);
  return SCORE.test(text) && Number.isFinite(n) && Math.abs(n) < 1e6 && (n === 0 || Math.abs(n) > 1e-30);
};

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
  const payload = JSON.stringify({ v: 1, q: queryFingerprint(query), m: MODE_CODES[position.mode], s: position.score, t: position.publishedMicros, i: position.id });
  return btoa(payload).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes a cursor made by encodeCursor for this same query, or throws invalid_request naming `cursor`. */
export function decodeCursor(query: string, cursor: string): SearchPosition {
  const invalid = (why: string) => new ServiceError('invalid_request', `cursor ${why}; pass next_cursor from the previous page unchanged.`);
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) throw invalid('is malformed');
  let data: unknown;
  try {
    data = JSON.parse(atob(cursor.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    throw invalid('is malformed');
  }
  const d = data as { v?: unknown; q?: unknown; m?: unknown; s?: unknown; t?: unknown; i?: unknown };
  const mode = (Object.keys(MODE_CODES) as SearchMode[]).find((m) => MODE_CODES[m] === d.m);
  const valid =
    d.v === 1 &&
    typeof d.q === 'string' &&
    mode !== undefined &&
    (mode === 'newest' ? d.s === null : typeof d.s === 'string' && isScore(d.s)) &&
    typeof d.t === 'string' &&
    MICROS.test(d.t) &&
    typeof d.i === 'string' &&
    isUuid(d.i);
  if (!valid) throw invalid('is malformed');
  if (d.q !== queryFingerprint(query)) throw invalid('belongs to a different query');
  return { mode: mode!, score: d.s as string | null, publishedMicros: d.t as string, id: d.i as string };
}
