// Instrumented adapters for the round-trip counts: every database statement, limiter call, payment call
// and queue publish goes through a counter, so a benchmark can say how many happen per operation.
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { PaymentsAdapter } from '../../../src/adapters/payments/types';
import type { JobQueue } from '../../../src/adapters/queue/types';
import type { RateLimiter } from '../../../src/adapters/ratelimit/types';

/** Counts of calls since the last reset. */
export interface CallCounts {
  statements: number;
  /** Reads of the listing version by the page cache (functions/middleware/page-cache.ts), not in `statements`. */
  versionReads: number;
  limiter: number;
  payments: number;
  publishes: number;
}

export const counts: CallCounts = { statements: 0, versionReads: 0, limiter: 0, payments: 0, publishes: 0 };

export function resetCounts() {
  counts.statements = 0;
  counts.versionReads = 0;
  counts.limiter = 0;
  counts.payments = 0;
  counts.publishes = 0;
}

let patched = false;
/** The page cache's one statement (src/adapters/page-cache/listing-version.ts), counted apart. */
const LISTING_VERSION_READ = 'SELECT version FROM listing_version';

/**
 * Counts statements at the driver: node-postgres Pool#query (what drizzle's node-postgres session calls)
 * and PGlite#query/#exec. Process-wide, so only for bench processes.
 */
export function countDatabaseStatements() {
  if (patched) return;
  patched = true;
  const poolQuery = pg.Pool.prototype.query;
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text;
    if (text === LISTING_VERSION_READ) counts.versionReads++;
    else counts.statements++;
    return (poolQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof poolQuery;
  for (const method of ['query', 'exec'] as const) {
    const original = PGlite.prototype[method];
    (PGlite.prototype as unknown as Record<string, unknown>)[method] = function (this: PGlite, ...args: unknown[]) {
      if (args[0] === LISTING_VERSION_READ) counts.versionReads++;
      else counts.statements++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  }
}

/** Wraps a limiter: counts calls; `neverRefuse` keeps the full cost of the call but ignores its verdict. */
export function countingLimiter(inner: RateLimiter, options: { neverRefuse?: boolean } = {}): RateLimiter {
  return {
    async limit(window, identifier) {
      counts.limiter++;
      const result = await inner.limit(window, identifier);
      return options.neverRefuse ? { ...result, success: true, remaining: Math.max(1, result.remaining) } : result;
    },
  };
}

export function countingPayments(inner: PaymentsAdapter): PaymentsAdapter {
  return {
    ...inner,
    kind: inner.kind,
    createCheckout(request) {
      counts.payments++;
      return inner.createCheckout(request);
    },
    expireCheckout(sessionId) {
      counts.payments++;
      return inner.expireCheckout(sessionId);
    },
    refund(paymentIntentId, reason) {
      counts.payments++;
      return inner.refund(paymentIntentId, reason);
    },
  };
}

/**
 * A queue that records publishes and holds each one open until `release()`: if a response arrives
 * while its publish is still held, the publish was off the response path.
 */
export function holdingQueue(): JobQueue & { held: number; release(): void } {
  let waiters: Array<() => void> = [];
  const queue = {
    kind: 'local' as const,
    held: 0,
    enqueue() {
      counts.publishes++;
      queue.held++;
      return new Promise<void>((resolve) =>
        waiters.push(() => {
          queue.held--;
          resolve();
        }),
      );
    },
    release() {
      const pending = waiters;
      waiters = [];
      for (const done of pending) done();
    },
  };
  return queue;
}
