// A test app whose payments and limiter a test can count and steer, for the Idempotency-Key scenarios
// (test/functions/v1/idempotency-scenarios.ts) on PGlite and on PostgreSQL through the Neon HTTP stand-in.
import { sql } from 'drizzle-orm';
import type { Env } from '../../../src/config';
import { queryRows } from '../../../src/db/client';
import type { OpenedDb } from '../../../src/db/node-clients';
import { createLocalPayments } from '../../../src/adapters/payments/local';
import { planPrices } from '../../../src/catalog/plans';
import type { CheckoutRequest, PaymentsAdapter } from '../../../src/adapters/payments/types';
import { createMemoryLimiter } from '../../../src/adapters/ratelimit/memory';
import type { RateLimiter } from '../../../src/adapters/ratelimit/types';
import { ServiceError } from '../../../src/errors';
import { createTestApp, type TestApp } from '../../helpers/test-app';

export interface IdempotencyHarness {
  t: TestApp;
  /** Every checkout the payment adapter was asked for (a replay must add none). */
  checkouts: CheckoutRequest[];
  /** Set to make the next createCheckout calls wait for it (a first use still in progress). */
  holdCheckout?: Promise<void>;
  /** How many next createCheckout calls fail with checkout_failed (a 5xx on our side). */
  failCheckouts: number;
  /** While true, every limiter call refuses (429). */
  limited: boolean;
  /** While true, every limiter call passes (for property tests that send many requests). */
  unlimited: boolean;
  sitesOf(accountId: string): Promise<number>;
  quotaUsed(accountId: string): Promise<number>;
  keyRows(accountId: string): Promise<Array<{ key: string; state: string }>>;
}

export async function createIdempotencyHarness(
  options: { db?: OpenedDb; env?: Env } = {},
): Promise<IdempotencyHarness> {
  const local = createLocalPayments(planPrices);
  const memory = createMemoryLimiter();
  const payments: PaymentsAdapter = {
    ...local,
    async createCheckout(request) {
      h.checkouts.push(request);
      if (h.holdCheckout) await h.holdCheckout;
      if (h.failCheckouts > 0) {
        h.failCheckouts -= 1;
        throw new ServiceError('checkout_failed', 'The payment provider did not answer.');
      }
      return local.createCheckout(request);
    },
  };
  const limiter: RateLimiter = {
    async limit(window, identifier) {
      if (h.limited) return { success: false, limit: window.limit, remaining: 0, reset: Date.now() + 30_000 };
      if (h.unlimited) return { success: true, limit: window.limit, remaining: window.limit, reset: Date.now() };
      return memory.limit(window, identifier);
    },
  };
  const t = await createTestApp({ db: options.db, env: options.env, overrides: { payments, limiter } });
  const count = async (query: ReturnType<typeof sql>) =>
    Number((await queryRows<{ n: number | string }>(t.deps.db, query))[0]?.n ?? 0);
  const h: IdempotencyHarness = {
    t,
    checkouts: [],
    failCheckouts: 0,
    limited: false,
    unlimited: false,
    sitesOf: (accountId) =>
      count(sql`SELECT (SELECT count(*) FROM sites WHERE account_id = ${accountId}::uuid)
        + (SELECT count(*) FROM pending_submissions WHERE account_id = ${accountId}::uuid) AS n`),
    quotaUsed: (accountId) =>
      count(sql`SELECT COALESCE(sum(used), 0) AS n FROM quota_usage WHERE account_id = ${accountId}::uuid`),
    keyRows: (accountId) =>
      queryRows(
        t.deps.db,
        sql`SELECT key, state FROM idempotency_keys WHERE account_id = ${accountId}::uuid ORDER BY key`,
      ),
  };
  return h;
}
