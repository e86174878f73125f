// Property-based fuzzing of /account/submissions/{site_id} and its buttons (docs/account.md "One submission"): any
// id in the path, any form on the edit and fresh-checkout POSTs. Properties: never a 5xx; another id than one's own
// is the 404; a refused edit files nothing; a refused fresh checkout makes no checkout session.
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import type { TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { expiredSession, sendEvent, submitUnpaid } from '../../helpers/stripe/payments-fixture';
import { csrfOf, PageClient } from '../pages/account/account-client';
import { RUNS, createFuzzApp } from './fuzz-app';

/** Pages answer in HTML: never a 5xx, and a refusal is a page, not a bare body. */
async function expectNoServerError(res: Response, what: string) {
  if (res.status >= 500) throw new Error(`${what} answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
  if (res.status >= 400) expect(res.headers.get('content-type'), what).toContain('text/html');
}

let t: TestApp;
let client: PageClient;
let csrf: string;
let tool: { id: string; slug: string };
let unpaid: { siteId: string };
beforeAll(async () => {
  t = await createFuzzApp();
  const member = await t.member('none');
  tool = await seedOwnedTool(t.deps.db, member.accountId, { name: 'Fuzzed Page Tool' });
  unpaid = await submitUnpaid(t, member.key);
  expect((await sendEvent(t, 'checkout.session.expired', expiredSession(await submitted(unpaid.siteId)))).status).toBe(
    200,
  );
  client = new PageClient(t);
  await client.signIn(member.email);
  csrf = csrfOf((await client.page('/account')).html);
});
afterAll(() => t.close());

async function submitted(siteId: string) {
  const [row] = await queryRows<{ s: string }>(
    t.deps.db,
    sql`SELECT checkout_session_id AS s FROM pending_submissions WHERE id = ${siteId}`,
  );
  return { siteId, sessionId: row!.s };
}

const count = async (query: ReturnType<typeof sql>) => Number((await queryRows<{ n: number }>(t.deps.db, query))[0]!.n);
const edits = () => count(sql`SELECT count(*)::int AS n FROM site_edits WHERE site_id = ${tool.id}::uuid`);
const sessions = () =>
  count(sql`SELECT count(*)::int AS n FROM checkout_sessions WHERE site_id = ${unpaid.siteId}::uuid`);

/** Path segments: UUIDs (ours, others'), near-UUIDs, encoded oddities, garbage. */
const segment = fc.oneof(
  fc.uuid().map(String),
  fc.uuid().map((u) => `${u.slice(0, -1)}g`),
  fc.string({ minLength: 1, maxLength: 80 }).map(encodeURIComponent),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
  fc.constantFrom('%00', '%2e%2e', '..%2f', '%E0%A4%A', "1'%20OR%20'1'%3D'1", 'a'.repeat(5000), '%F0%9F%98%80'),
);

describe('fuzz /account/submissions/{site_id}', () => {
  it(`answers ${RUNS / 8} generated ids without a 5xx: only one's own id opens the page`, async () => {
    await fc.assert(
      fc.asyncProperty(segment, async (id) => {
        const res = await client.request(`/account/submissions/${id}`);
        await expectNoServerError(res, `id ${id.slice(0, 100)}`);
        expect([200, 404]).toContain(res.status);
        if (res.status === 200) expect([tool.id, unpaid.siteId]).toContain(decodeURIComponent(id).toLowerCase());
      }),
      { numRuns: Math.ceil(RUNS / 8), examples: [['..'], ['.'], ['%2e%2e'], ['%2E']] },
    );
  });

  it(`files an edit only for a valid form: ${RUNS / 16} generated forms, never a 5xx`, async () => {
    const field = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ minLength: 450, maxLength: 600 }),
      fc.stringMatching(/^[A-Z][a-z]{2,12}( [A-Z][a-z]{1,10}){0,2}$/),
    );
    const form = fc.record(
      { name: field, description: field, extra: fc.string({ maxLength: 10 }) },
      { requiredKeys: [] },
    );
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(form, async (f) => {
        const before = await edits();
        const res = await client.request(`/account/submissions/${tool.id}/edit`, {
          form: { _csrf: csrf, ...f },
          headers: { origin: 'http://tooldir.test' },
        });
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        await expectNoServerError(res, `form ${JSON.stringify(f).slice(0, 200)}`);
        // Each filed edit replaces the one waiting, so the count grows by one on a 303 and not otherwise.
        expect(await edits()).toBe(res.status === 303 ? before + 1 : before);
      }),
      { numRuns: Math.ceil(RUNS / 16) },
    );
    expect(seen.get(303)).toBeGreaterThan(0);
    expect(seen.get(400)).toBeGreaterThan(0);
  });

  it(`makes a checkout session only for a usable key: ${RUNS / 16} generated keys, never a 5xx`, async () => {
    const key = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.uuid().map(String),
    );
    await fc.assert(
      fc.asyncProperty(key, async (k) => {
        const before = await sessions();
        const res = await client.request(`/account/submissions/${unpaid.siteId}/checkout`, {
          form: { _csrf: csrf, idempotency_key: k },
          headers: { origin: 'http://tooldir.test' },
        });
        await expectNoServerError(res, `key ${JSON.stringify(k)}`);
        expect([303, 400]).toContain(res.status);
        expect(await sessions()).toBeLessThanOrEqual(before + 1);
        if (res.status !== 303) expect(await sessions()).toBe(before);
      }),
      { numRuns: Math.ceil(RUNS / 16) },
    );
  });
});
