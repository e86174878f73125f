import { noopEncoder, Param, Placeholder, SQL, StringChunk, type Query } from 'drizzle-orm';

// A faster renderer for the sql`` trees this codebase writes: text, nested sql``, sql.raw, values, lists, and
// placeholders. drizzle's own renderer asks `is(chunk, Kind)` of every chunk for a dozen kinds, walking each
// prototype chain; for the directory search's statement (hundreds of chunks) that cost ~400 µs of CPU per call
// (docs/bench.md "Public pages under load"). Anything else (tables, columns, names, aliases, subqueries, inlined
// params, encoders) makes it answer undefined, and drizzle renders the statement as before. The output is
// drizzle's to the character (test/unit/db/render-sql.test.ts compares them on the service's statements).

/** A value drizzle would send as one parameter: a primitive, null, a Date, bytes, or a plain object (JSON). */
function isPlainValue(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null || value instanceof Date || value instanceof Uint8Array;
}

/** The statement's text ($1, $2, … in order) and parameters, or undefined when drizzle must render it. */
export function renderSql(query: SQL): Query | undefined {
  const text: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    text.push(`$${params.length}`);
  };
  const walk = (chunk: unknown): boolean => {
    if (chunk instanceof StringChunk) {
      for (const part of chunk.value) text.push(part);
      return true;
    }
    if (chunk instanceof SQL) {
      // sql.inlineParams() (a private flag in drizzle's types): drizzle writes those values into the text.
      if ((chunk as unknown as { shouldInlineParams: boolean }).shouldInlineParams) return false;
      for (const inner of chunk.queryChunks) if (!walk(inner)) return false;
      return true;
    }
    if (chunk === undefined) return true;
    if (chunk instanceof Placeholder) {
      param(chunk);
      return true;
    }
    if (chunk instanceof Param) {
      if (chunk.encoder !== noopEncoder || chunk.value instanceof Placeholder || chunk.value instanceof SQL)
        return false;
      param(chunk.value);
      return true;
    }
    if (Array.isArray(chunk)) {
      // drizzle renders a JS array inside sql`` as a parenthesised list of its elements.
      text.push('(');
      for (let i = 0; i < chunk.length; i++) {
        if (i > 0) text.push(', ');
        if (!walk(chunk[i])) return false;
      }
      text.push(')');
      return true;
    }
    if (!isPlainValue(chunk)) return false;
    if (chunk !== null && typeof (chunk as { getSQL?: unknown }).getSQL === 'function') return false; // a plain object acting as SQL
    param(chunk);
    return true;
  };
  return walk(query) ? { sql: text.join(''), params } : undefined;
}
