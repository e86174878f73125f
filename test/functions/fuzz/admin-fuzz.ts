// Property-based fuzzing of the operator API: every body and path parameter of accounts, keys and
// memberships. Properties: never a 5xx; a refused request changes no row. Two files share this module
// (admin-accounts.test.ts, admin-keys.test.ts), each with its own app from useAdminFuzzApp(), so the 8,000 requests
// run on both test workers instead of making one suite the longest of the run.
import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { RUNS, anyField, createFuzzApp, expectNoServerError, rowWatch } from './fuzz-app';

export { RUNS, anyField };

let t: TestApp;
export let accountId: string;
export let keyId: string;
let rows: ReturnType<typeof rowWatch>;
/**
 * Gives the calling test file its own app (call it at the file's top level). A function rather than hooks at this
 * module's top level: test files share a worker's module cache, so such hooks would be registered by the first
 * file that imports this module only.
 */
export function useAdminFuzzApp() {
  beforeAll(async () => {
    t = await createFuzzApp();
    rows = rowWatch(t);
    ({ accountId, keyId } = await t.member('member'));
  });
  afterAll(() => t.close());
}

export const idSegment = () =>
  fc.oneof(
    fc.uuid(),
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'null', '%00', '..', "1'%20OR%201=1--", 'a'.repeat(500)),
    fc.string().map(encodeURIComponent),
    fc.webSegment(),
  );
export const tierish = fc.oneof(fc.constantFrom('none', 'member', 'memberFeature', 'MEMBER', '', 'admin'), anyField);
export const bodyText = (fields: fc.Arbitrary<Record<string, unknown>>) =>
  fc.oneof(
    { weight: 5, arbitrary: fields.map((f) => JSON.stringify(f)) },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string() },
  );

/** Sends one generated operator request and checks both properties. */
export async function check(method: string, path: string, body: string | undefined, allowedWrites: number[]) {
  const before = await rows.before();
  const headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await t.request(path, { method, headers, body });
  await expectNoServerError(res, `${method} ${path.slice(0, 200)} ${body?.slice(0, 200) ?? ''}`);
  const after = await rows.after();
  if (!allowedWrites.includes(res.status)) expect(after).toEqual(before);
  return res.status;
}
