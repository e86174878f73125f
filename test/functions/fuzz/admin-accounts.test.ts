// Fuzz of the operator API: creating accounts and their keys (the generators, the app and the properties: ./admin-fuzz.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUNS, accountId, anyField, bodyText, check, idSegment, tierish, useAdminFuzzApp } from './admin-fuzz';

useAdminFuzzApp();

describe('fuzz the operator API: accounts and keys', () => {
  it(`POST /api/v1/admin/accounts: ${RUNS} generated bodies`, async () => {
    const fields = fc.record({ email: fc.oneof(fc.emailAddress(), anyField), tier: tierish }, { requiredKeys: [] });
    // Bodies the operator API accepts, so a 201 comes up whatever PROPERTY_RUNS is (fc.emailAddress() mostly draws
    // RFC 5322 oddities the e-mail rule refuses).
    const email = fc
      .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/), fc.domain())
      .map(([local, domain]) => `${local}@${domain}`);
    const valid = fc
      .record({ email, tier: fc.constantFrom('none', 'member', 'memberFeature') })
      .map((f) => JSON.stringify(f));
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof({ weight: 1, arbitrary: valid }, { weight: 4, arbitrary: bodyText(fields) }),
        async (body) => {
          seen.add(await check('POST', '/api/v1/admin/accounts', body, [201]));
        },
      ),
      { numRuns: RUNS },
    );
    expect(seen.has(201) && seen.has(400)).toBe(true);
  }, 180_000);

  it(`POST /api/v1/admin/accounts/{account_id}/keys: ${RUNS} generated ids and bodies`, async () => {
    const fields = fc.record({ name: fc.oneof(fc.string({ maxLength: 120 }), anyField) }, { requiredKeys: [] });
    const id = fc.oneof(
      idSegment(),
      fc.constant(null).map(() => accountId),
    );
    await fc.assert(
      fc.asyncProperty(id, fc.option(bodyText(fields)), async (account, body) => {
        await check('POST', `/api/v1/admin/accounts/${account}/keys`, body ?? undefined, [201]);
      }),
      { numRuns: RUNS },
    );
  }, 180_000);
});
