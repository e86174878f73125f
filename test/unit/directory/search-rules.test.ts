import { describe, expect, it } from 'vitest';
import { normalizeQuery, queryTerms, toPrefixTsQuery, wholeWords } from '../../../src/directory/search-terms';
import { decodeCursor, encodeCursor } from '../../../src/directory/search-cursor';
import { shortenDescription } from '../../../src/directory/tool-record';

describe('search terms', () => {
  it('collapses whitespace and treats blank as no query', () => {
    expect(normalizeQuery('  AI \n  writer ')).toBe('AI writer');
    expect(normalizeQuery('   ')).toBe('');
    expect(normalizeQuery(undefined)).toBe('');
    expect(normalizeQuery('a\u0000b\u0007 c\u0000')).toBe('a b c'); // a NUL would fail the statement (found by the MCP fuzz)
    // Half a surrogate pair (JSON-RPC can carry one) becomes U+FFFD, as UTF-8 would send it: the query travels inside
    // a JSON parameter, which PostgreSQL refuses with a lone surrogate in it.
    expect(normalizeQuery('a\ud800b \udc00 \ud83d\ude00')).toBe('a\ufffdb \ufffd \ud83d\ude00');
  });

  it('keeps only letters and digits, so tsquery syntax cannot be injected', () => {
    expect(queryTerms("a & b | !c:* 'd' <-> (e)")).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(toPrefixTsQuery('AI writer')).toBe('ai & writer:*');
    expect(toPrefixTsQuery('Übersetzer 2000')).toBe('übersetzer & 2000:*');
    expect(toPrefixTsQuery('&&& !!!')).toBeUndefined();
    expect(wholeWords(queryTerms('AI writer'))).toBe('ai & writer');
  });
});

describe('search cursor', () => {
  const position = {
    mode: 'text' as const,
    tier: 1 as 0 | 1 | 2 | null,
    publishedMicros: '1763760000123456',
    id: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a',
  };

  it('round-trips the position for the same query', () => {
    const cursor = encodeCursor('writer', position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('writer', cursor)).toEqual(position);
  });

  it('refuses a cursor of another query and malformed cursors, naming the field', () => {
    const cursor = encodeCursor('writer', position);
    expect(() => decodeCursor('painter', cursor)).toThrow(/cursor belongs to a different query/);
    expect(() => decodeCursor('writer', 'not a cursor!')).toThrow(/cursor is malformed/);
    expect(() => decodeCursor('writer', btoa('{"v":2}'))).toThrow(/cursor is malformed/);
    const newest = encodeCursor('', { ...position, mode: 'newest', tier: null });
    expect(decodeCursor('', newest)).toEqual({ ...position, mode: 'newest', tier: null });
    const forged = btoa(JSON.stringify({ v: 2, q: 'x', m: 't', r: "1'; DROP TABLE sites;--", t: '1', i: position.id }));
    expect(() => decodeCursor('writer', forged.replace(/=+$/, ''))).toThrow(/cursor is malformed/);
    // Values the statement would reject must be refused here, as a 400 rather than a failing statement.
    for (const [r, t] of [
      [6, '1'],
      [-1, '1'],
      [1.5, '1'],
      ['1', '1'],
      [1, '99999999999999999999'],
    ] as const) {
      const outOfRange = encodeCursor('writer', { ...position, tier: r as 0, publishedMicros: t });
      expect(() => decodeCursor('writer', outOfRange), `${r} ${t}`).toThrow(/cursor is malformed/);
    }
    // A text cursor without a tier is not a newest cursor's null.
    expect(() => decodeCursor('writer', encodeCursor('writer', { ...position, tier: null }))).toThrow(
      /cursor is malformed/,
    );
  });

  it('carries the correction a corrected search used (typo cursors only), the first when an older cursor has none', () => {
    const typo = { ...position, mode: 'typo' as const, tier: 4 as const };
    expect(decodeCursor('writer', encodeCursor('writer', { ...typo, attempt: 2 }))).toEqual({ ...typo, attempt: 2 });
    expect(decodeCursor('writer', encodeCursor('writer', typo))).toEqual({ ...typo, attempt: 1 });
    for (const attempt of [0, 10, 1.5, -1]) {
      expect(() => decodeCursor('writer', encodeCursor('writer', { ...typo, attempt })), String(attempt)).toThrow(
        /cursor is malformed/,
      );
    }
    const forged = btoa(JSON.stringify({ v: 2, q: 'x', m: 'y', r: 1, t: '1', i: position.id, a: '2' })).replace(
      /=+$/,
      '',
    );
    expect(() => decodeCursor('writer', forged)).toThrow(/cursor is malformed/);
    // A text cursor never names a correction.
    expect(() => decodeCursor('writer', encodeCursor('writer', { ...position, attempt: 1 }))).toThrow(
      /cursor is malformed/,
    );
  });
});

describe('short description', () => {
  it('keeps short text, cuts long text at a word with an ellipsis', () => {
    expect(shortenDescription('  Writes   blog posts. ')).toBe('Writes blog posts.');
    expect(shortenDescription('Writes\nblog\tposts.')).toBe('Writes blog posts.');
    expect(shortenDescription('Writes blog posts.')).toBe('Writes blog posts.');
    expect(shortenDescription(null)).toBeNull();
    expect(shortenDescription('   ')).toBeNull();
    const long = 'word '.repeat(60);
    const short = shortenDescription(long)!;
    expect(short.length).toBeLessThanOrEqual(160);
    expect(short).toMatch(/word…$/);
  });
});
