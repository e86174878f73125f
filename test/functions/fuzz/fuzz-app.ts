// Shared by the fuzz suites: the real app over PGlite with limits that never refuse (so every generated
// case reaches validation and the verbs), a queue that drops publishes (no crawl), and the row counts
// that invalid input must leave unchanged.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import type { RateLimiter } from '../../../src/adapters/ratelimit/types';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PROPERTY_RUNS } from '../../helpers/property-runs';

/** Generated cases per endpoint (the issue asks for at least 2,000 in `npm test`; PROPERTY_RUNS, test/helpers/property-runs.ts). */
export const RUNS = PROPERTY_RUNS;

const unlimited: RateLimiter = {
  async limit({ limit }) {
    return { success: true, limit, remaining: limit, reset: Date.now() + 60_000 };
  },
};

export function createFuzzApp(): Promise<TestApp> {
  return createTestApp({
    env: { MEMBER_DAILY_LIMIT: '1000000', MEMBER_FEATURE_DAILY_LIMIT: '1000000' },
    overrides: { limiter: unlimited, queue: { kind: 'local', enqueue: async () => {} } },
  });
}

export interface RowCounts {
  accounts: number;
  api_keys: number;
  sites: number;
  pending_submissions: number;
  quota_usage: number;
}

/** All counts in one statement (cheap enough to run around every generated case). */
export async function rowCounts(t: TestApp): Promise<RowCounts> {
  const [row] = await queryRows<Record<keyof RowCounts, number | string>>(
    t.deps.db,
    sql`SELECT (SELECT count(*) FROM accounts) AS accounts, (SELECT count(*) FROM api_keys) AS api_keys,
        (SELECT count(*) FROM sites) AS sites, (SELECT count(*) FROM pending_submissions) AS pending_submissions,
        (SELECT count(*) FROM quota_usage) AS quota_usage`,
  );
  return Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)])) as unknown as RowCounts;
}

/**
 * Row counts carried from one generated case to the next, so a case reads them once (after its request) instead of
 * twice: the counts after case n are the counts before case n+1, because a file's tests run one at a time and every
 * write of a case is done when its answer is (the fuzz app drops queue publishes). Halves the statements the two
 * slowest suites spend on bookkeeping.
 */
export function rowWatch(t: TestApp) {
  let last: RowCounts | undefined;
  return {
    /** The counts before the next request. */
    before: async () => (last ??= await rowCounts(t)),
    /** The counts now; they become the next case's `before`. */
    after: async () => (last = await rowCounts(t)),
  };
}

/** A value of any JSON-ish shape a client might send in a field's place. */
export const anyField = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 250, maxLength: 600 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** URL-like strings: real ones, private/odd hosts, other schemes, garbage. */
export const urlish = fc.oneof(
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc.constantFrom(
    'http://127.0.0.1/',
    'https://localhost:8080/x',
    'https://10.0.0.1/',
    'https://[::1]/',
    'javascript:alert(1)',
    'ftp://files.example/',
    'https://exa mple.com',
    'https://xn--nxasmq6b.example/',
    'https://user:pass@example.com/',
    'https://example.com:99999/',
    '   https://example.com   ',
    'https://example.com/%00',
    '//example.com',
    'https://' + 'a'.repeat(300) + '.example/',
  ),
  fc.string(),
  fc.domain().map((d) => `https://${d}/`),
);

/** Plans, valid and not. */
export const planish = fc.oneof(
  fc.constantFrom('basic', 'featured', 'sponsored', 'Basic', '', 'free', 'member'),
  anyField,
);

/** Expectation shared by every suite: never a 5xx, and the error shape on every 4xx. */
export async function expectNoServerError(res: Response, what: string): Promise<void> {
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${await res.text()}`);
  if (res.status >= 400 && res.status !== 402 && res.status !== 405) {
    const body = (await res.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code !== 'string' || typeof body.error?.message !== 'string') {
      throw new Error(`${what} answered ${res.status} without the error shape: ${JSON.stringify(body)}`);
    }
  }
}
