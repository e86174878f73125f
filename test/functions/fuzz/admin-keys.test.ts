// Fuzz of the operator API: memberships and key revocation (the generators, the app and the properties: ./admin-fuzz.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUNS, accountId, anyField, bodyText, check, idSegment, keyId, tierish, useAdminFuzzApp } from './admin-fuzz';

useAdminFuzzApp();

describe('fuzz the operator API: memberships and revocation', () => {
  it(`PUT /api/v1/admin/accounts/{account_id}/membership: ${RUNS} generated ids and bodies`, async () => {
    const fields = fc.record(
      {
        tier: tierish,
        status: fc.oneof(fc.constantFrom('active', 'trialing', 'past_due', 'canceled', 'none', 'paused'), anyField),
        current_period_end: fc.oneof(
          fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
          fc.constantFrom('2026-13-01T00:00:00Z', 'tomorrow', '2026-01-01'),
          anyField,
        ),
      },
      { requiredKeys: [] },
    );
    const id = fc.oneof(
      idSegment(),
      fc.constant(null).map(() => accountId),
    );
    await fc.assert(
      fc.asyncProperty(id, bodyText(fields), async (account, body) => {
        await check('PUT', `/api/v1/admin/accounts/${account}/membership`, body, []);
      }),
      { numRuns: RUNS },
    );
  }, 180_000);

  it(`DELETE /api/v1/admin/keys/{key_id}: ${RUNS} generated ids`, async () => {
    const id = fc.oneof(
      idSegment(),
      fc.constant(null).map(() => keyId),
    );
    await fc.assert(
      fc.asyncProperty(id, async (key) => {
        await check('DELETE', `/api/v1/admin/keys/${key}`, undefined, []);
      }),
      { numRuns: RUNS },
    );
  }, 180_000);
});
