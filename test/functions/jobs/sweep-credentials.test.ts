import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { runSweep } from '../../../src/pipeline/sweep';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (table: 'sign_in_codes' | 'web_sessions', key: string, column: string) =>
  Number((await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} LIKE ${`${key}%`}`))[0]!.n);

it('the sweep deletes expired sessions and day-old expired sign-in codes, and keeps live ones', async () => {
  const key = `sweep-${crypto.randomUUID().slice(0, 8)}`;
  await t.deps.db.execute(sql`INSERT INTO sign_in_codes (email, code_hash, expires_at) VALUES
    (${`${key}-old@example.com`}, 'h', now() - interval '2 days'),
    (${`${key}-locked@example.com`}, 'h', now() - interval '1 hour'),
    (${`${key}-live@example.com`}, 'h', now() + interval '5 minutes')`);
  await t.deps.db.execute(sql`INSERT INTO web_sessions (token_hash, kind, csrf_token, expires_at) VALUES
    (${`${key}-old`}, 'editor', 'c', now() - interval '1 minute'),
    (${`${key}-live`}, 'editor', 'c', now() + interval '1 day')`);
  const report = await runSweep(t.deps);
  expect(report.expiredCredentials).toBeGreaterThanOrEqual(2);
  expect(await count('sign_in_codes', key, 'email')).toBe(2);
  expect(await count('web_sessions', key, 'token_hash')).toBe(1);
});
