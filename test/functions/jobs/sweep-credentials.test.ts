import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { runSweep } from '../../../src/jobs/sweep';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const count = async (table: 'sign_in_codes' | 'sign_in_send_budgets' | 'web_sessions', key: string, column: string) =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.deps.db,
        sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} LIKE ${`${key}%`}`,
      )
    )[0]!.n,
  );

it('the sweep deletes expired sessions, expired sign-in codes and day-old send budgets, and keeps live ones', async () => {
  const key = `sweep-${crypto.randomUUID().slice(0, 8)}`;
  await t.deps.db.execute(sql`INSERT INTO sign_in_codes (challenge_hash, email, code_hash, expires_at) VALUES
    (${`${key}-old`}, 'old@example.com', 'h', now() - interval '2 days'),
    (${`${key}-dead`}, 'dead@example.com', 'h', now() - interval '1 second'),
    (${`${key}-live`}, 'live@example.com', 'h', now() + interval '5 minutes')`);
  // A budget window is kept until it is well over: deleting it early would hand out a fresh budget.
  await t.deps.db.execute(sql`INSERT INTO sign_in_send_budgets (email, client, window_start, sent) VALUES
    (${`${key}-old@example.com`}, '*', now() - interval '2 days', 6),
    (${`${key}-live@example.com`}, '*', now() - interval '30 minutes', 6)`);
  await t.deps.db.execute(sql`INSERT INTO web_sessions (token_hash, kind, csrf_token, expires_at) VALUES
    (${`${key}-old`}, 'editor', 'c', now() - interval '1 minute'),
    (${`${key}-live`}, 'editor', 'c', now() + interval '1 day')`);
  const report = await runSweep(t.deps);
  expect(report.expiredCredentials).toBeGreaterThanOrEqual(4);
  expect(await count('sign_in_codes', key, 'challenge_hash')).toBe(1);
  expect(await count('sign_in_send_budgets', key, 'email')).toBe(1);
  expect(await count('web_sessions', key, 'token_hash')).toBe(1);
});
