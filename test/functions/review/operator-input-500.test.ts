// Review findings F4 and F5: operator API inputs that pass schema validation but that PostgreSQL refuses,
// surfacing as 500 internal_error (the issue: "no 5xx for any input").
//  F4: a key name containing U+0000 (PostgreSQL text cannot hold NUL).
//  F5: current_period_end in year 0000 (valid ISO 8601 per zod, but PostgreSQL has no year 0).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { expectErrorBody, operator } from './review-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('operator API: inputs the database refuses are 400, not 500', () => {
  it('F4: POST /admin/accounts/{id}/keys with a NUL in the key name is 400 invalid_request', async () => {
    const m = await t.member('none');
    const res = await operator(t, `/api/v1/admin/accounts/${m.accountId}/keys`, { method: 'POST', json: { name: 'ci\u0000key' } });
    expect(res.status).toBe(400);
    await expectErrorBody(res, 'invalid_request');
  });

  it.each(['0000-01-01T00:00:00Z', '0000-12-31T23:59:59Z'])(
    'F5: PUT membership with current_period_end %s is 400 invalid_request',
    async (end) => {
      const m = await t.member('none');
      const res = await operator(t, `/api/v1/admin/accounts/${m.accountId}/membership`, {
        method: 'PUT',
        json: { tier: 'member', current_period_end: end },
      });
      expect(res.status).toBe(400);
      await expectErrorBody(res, 'invalid_request');
    },
  );
});
