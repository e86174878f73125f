// Property-based fuzzing of the operator API: every body and path parameter of accounts, keys and
// memberships. Properties: never a 5xx; a refused request changes no row.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { RUNS, anyField, createFuzzApp, expectNoServerError, rowCounts } from './fuzz-app';

let t: TestApp;
let accountId: string;
let keyId: string;
beforeAll(async () => {
  t = await createFuzzApp();
  ({ accountId, keyId } = await t.member('member'));
});
afterAll(() => t.close());

const idSegment = () =>
  fc.oneof(
    fc.uuid(),
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'null', '%00', '..', "1'%20OR%201=1--", 'a'.repeat(500)),
    fc.string().map(encodeURIComponent),
    fc.webSegment(),
  );
const tierish = fc.oneof(fc.constantFrom('none', 'member', 'memberFeature', 'MEMBER', '', 'admin'), anyField);
const bodyText = (fields: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof(
    { weight: 5, arbitrary: fields.map((f) => JSON.stringify(f)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string() },
  );

/** Sends one generated operator request and checks both properties. */
async function check(method: string, path: string, body: string | undefined, allowedWrites: number[]) {
  const before = await rowCounts(t);
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.request(path, { method, headers, body });
  await expectNoServerError(res, `${method} ${path.slice(0, 200)} ${body?.slice(0, 200) ?? ''}`);
  if (!allowedWrites.includes(res.status)) expect(await rowCounts(t)).toEqual(before);
  return res.status;
}

describe('fuzz the operator API', () => {
  it(`POST /api/v1/admin/accounts: ${RUNS} generated bodies`, async () => {
    const fields = fc.record({ email: fc.oneof(fc.emailAddress(), anyField), tier: tierish }, { requiredKeys: [] });
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodyText(fields), async (body) => {
        seen.add(await check('POST', '/api/v1/admin/accounts', body, [201]));
      }),
      { numRuns: RUNS },
    );
    expect(seen.has(201) && seen.has(400)).toBe(true);
  }, 180_000);

  it(`POST /api/v1/admin/accounts/{account_id}/keys: ${RUNS} generated ids and bodies`, async () => {
    const fields = fc.record({ name: fc.oneof(fc.string({ maxLength: 120 }), anyField) }, { requiredKeys: [] });
    const id = fc.oneof(idSegment(), fc.constant(null).map(() => accountId));
    await fc.assert(
      fc.asyncProperty(id, fc.option(bodyText(fields)), async (account, body) => {
        await check('POST', `/api/v1/admin/accounts/${account}/keys`, body ?? undefined, [201]);
      }),
      { numRuns: RUNS },
    );
  }, 180_000);

  it(`PUT /api/v1/admin/accounts/{account_id}/membership: ${RUNS} generated ids and bodies`, async () => {
    const fields = fc.record(
      {
        tier: tierish,
        status: fc.oneof(fc.constantFrom('active', 'trialing', 'past_due', 'canceled', 'none', 'paused'), anyField),
        current_period_end: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom('2026-13-01T00:00:00Z', 'tomorrow', '2026-01-01'), anyField),
      },
      { requiredKeys: [] },
    );
    const id = fc.oneof(idSegment(), fc.constant(null).map(() => accountId));
    await fc.assert(
      fc.asyncProperty(id, bodyText(fields), async (account, body) => {
        await check('PUT', `/api/v1/admin/accounts/${account}/membership`, body, []);
      }),
      { numRuns: RUNS },
    );
  }, 180_000);

  it(`DELETE /api/v1/admin/keys/{key_id}: ${RUNS} generated ids`, async () => {
    const id = fc.oneof(idSegment(), fc.constant(null).map(() => keyId));
    await fc.assert(
      fc.asyncProperty(id, async (key) => {
        await check('DELETE', `/api/v1/admin/keys/${key}`, undefined, []);
      }),
      { numRuns: RUNS },
    );
  }, 180_000);
});
