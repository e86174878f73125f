// src/db/render-sql.ts renders the service's sql`` trees without drizzle's renderer (faster); every text and
// parameter must be drizzle's own, and anything it does not know must be left to drizzle (undefined).
import { Param, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { renderSql } from '../../../src/db/render-sql';
import { sites } from '../../../src/db/schema';
import {
  newestSearchStatement,
  newestStatement,
  rankedPagesStatement,
  categoryFilter,
} from '../../../src/directory/search-statements';
import { toolColumns } from '../../../src/directory/tool-record';
import { pendingRecordColumns, siteRecordColumns } from '../../../src/submissions/records';
import { progressColumns } from '../../../src/submissions/progress';

const dialect = new PgDialect();
const asDrizzle = (query: SQL) => {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return { sql: text, params };
};

const after = {
  mode: 'text' as const,
  tier: 1 as const,
  publishedMicros: '1700000000000000',
  id: '6f1c2c1e-6f0e-4d7a-9a53-2f6c2b1f4b1a',
};

const statements: Record<string, SQL> = {
  'text, values, null, undefined, Date, bytes, JSON': sql`SELECT ${1}, ${'two'}, ${null}, ${undefined}, ${true}, ${new Date(0)}, ${new Uint8Array([1, 2])}, ${JSON.stringify({ a: 1 })}::jsonb, ${{ plain: 'object' }}`,
  'nested and raw': sql`SELECT ${sql`a ${sql.raw('+ 1')} = ${2}`} FROM t WHERE x IN ${['a', 'b', 'c']} AND y = ANY(${sql`${['d']}`})`,
  'join and empty': sql`SELECT ${sql.join([sql`${1}`, sql`${2}`, sql.raw('3')], sql`, `)}${sql``}${sql.empty()}`,
  'placeholders and params': sql`SELECT ${sql.placeholder('a')}, ${new Param(5)}, ${sql.placeholder('a')}`,
  'newest tools, first page': newestStatement(21, undefined, categoryFilter(undefined)),
  'newest tools of a category, later page': newestStatement(
    25,
    { ...after, mode: 'newest', tier: null },
    categoryFilter('code'),
  ),
  'the tool and record columns': sql`SELECT ${toolColumns}, ${siteRecordColumns}, ${progressColumns} FROM sites s WHERE s.id = ${after.id}
    UNION ALL SELECT ${pendingRecordColumns} FROM pending_submissions p WHERE p.id = ${after.id}`,
};
const searches = [
  ['swift writer', undefined, true, undefined],
  ['pyth', 'code', true, undefined],
  ['wrtier', undefined, false, undefined],
  ['summarize meeting notes', 'writing', true, after],
  ['zzqxv', undefined, true, { ...after, mode: 'typo' as const, attempt: 2 }],
  ['!!!', undefined, true, undefined],
] as const;
const calls = searches.map(([query, category, correct, cursor]) => ({
  query,
  category,
  take: 21,
  correct,
  after: cursor,
}));
for (const call of calls)
  statements[
    `search "${call.query}"${call.correct ? '' : ' as typed'}${call.category ? ` in ${call.category}` : ''}${call.after ? ', later page' : ''}`
  ] = rankedPagesStatement([call]);
statements['six searches in one statement'] = rankedPagesStatement(calls);
statements['newest tools as search lists them'] = newestSearchStatement(
  21,
  after ? { ...after, mode: 'newest', tier: null } : undefined,
  categoryFilter('code'),
);

describe('renderSql', () => {
  it.each(Object.entries(statements))('renders %s exactly as drizzle does', (_name, query) => {
    expect(renderSql(query)).toEqual(asDrizzle(query));
  });

  it('leaves to drizzle what it does not render itself: tables, columns, names, inlined params, encoders', () => {
    expect(renderSql(sql`SELECT * FROM ${sites}`)).toBeUndefined();
    expect(renderSql(sql`SELECT ${sites.id} FROM sites`)).toBeUndefined();
    expect(renderSql(sql`SELECT ${sql.identifier('name')}`)).toBeUndefined();
    expect(renderSql(sql`SELECT ${1}`.inlineParams())).toBeUndefined();
    expect(renderSql(sql`SELECT ${new Param(1, { mapToDriverValue: (v: unknown) => String(v) })}`)).toBeUndefined();
    expect(renderSql(sql`SELECT ${new Map()}`)).toBeUndefined();
  });
});
