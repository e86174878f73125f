// The cap of 25 active API keys per account (src/accounts/api-keys.ts) holds under concurrency, for the operator
// API and the account keys page alike: on PGlite (statements serialised) and on a real PostgreSQL server, where
// 30 creates race on separate connections.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { findPostgresBinaries } from '../../helpers/services/postgres';
import { usePostgresTestApp } from '../../helpers/services/postgres-test-app';
import { requireService } from '../../helpers/services/require-service';
import { ADMIN_TOKEN, type TestApp, usePgliteTestApp } from '../../helpers/test-app';
import { PageClient, csrfOf, newEmail } from '../pages/account/account-client';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

function capSuite(getApp: () => TestApp) {
  let n = 0;
  // A distinct client IP per call keeps the operator API's per-IP limit out of the way of 30 creates at once.
  const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
    getApp().request(path, { ...init, key: ADMIN_TOKEN, headers: { 'cf-connecting-ip': `203.0.113.${++n % 250}` } });
  const activeKeys = async (accountId: string) =>
    (
      await queryRows<{ n: number }>(
        getApp().deps.db,
        sql`SELECT count(*)::int AS n FROM api_keys WHERE account_id = ${accountId} AND revoked_at IS NULL`,
      )
    )[0]!.n;
  const newAccount = async (): Promise<string> =>
    (await (await admin('/api/v1/admin/accounts', { method: 'POST', json: { email: newEmail() } })).json()).account_id;

  it('30 operator creates at once: exactly 25 keys, five 409 conflicts; a revoke frees one place, twice frees one', async () => {
    const accountId = await newAccount();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        admin(`/api/v1/admin/accounts/${accountId}/keys`, { method: 'POST', json: { name: `k${i}` } }),
      ),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(25).fill(201), ...Array(5).fill(409)]);
    const refused = await answers.find((r) => r.status === 409)!.json();
    expect(refused).toEqual({
      error: { code: 'conflict', message: 'You already have 25 active keys. Revoke one you no longer use first.' },
    });
    expect(await activeKeys(accountId)).toBe(25);

    const created = await Promise.all(answers.filter((r) => r.status === 201).map((r) => r.json()));
    const [revokeA, revokeB] = await Promise.all([
      admin(`/api/v1/admin/keys/${created[0].key_id}`, { method: 'DELETE' }),
      admin(`/api/v1/admin/keys/${created[0].key_id}`, { method: 'DELETE' }),
    ]);
    expect([revokeA!.status, revokeB!.status]).toEqual([204, 204]);
    const again = await Promise.all(
      Array.from({ length: 3 }, () => admin(`/api/v1/admin/accounts/${accountId}/keys`, { method: 'POST' })),
    );
    expect(again.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await activeKeys(accountId)).toBe(25);
  });

  it('the account keys page meets the same cap, created nothing past it, and names are trimmed in the core', async () => {
    const client = new PageClient(getApp());
    const email = newEmail();
    await client.signIn(email);
    const [account] = await queryRows<{ id: string }>(
      getApp().deps.db,
      sql`SELECT id FROM accounts WHERE email = ${email}`,
    );
    const page = await client.page('/account/keys');
    const named = await client.request('/account/keys', {
      form: { _csrf: csrfOf(page.html), name: '  my \t  laptop  ' },
    });
    expect(named.status).toBe(303);
    const viaApi = await admin(`/api/v1/admin/accounts/${account!.id}/keys`, {
      method: 'POST',
      json: { name: '  ci  ' },
    });
    expect((await viaApi.json()).name).toBe('ci');
    const names = await queryRows<{ name: string }>(
      getApp().deps.db,
      sql`SELECT name FROM api_keys WHERE account_id = ${account!.id} ORDER BY name`,
    );
    expect(names.map((r) => r.name)).toEqual(['ci', 'my laptop']);

    const fill = await Promise.all(
      Array.from({ length: 30 }, () => admin(`/api/v1/admin/accounts/${account!.id}/keys`, { method: 'POST' })),
    );
    expect(fill.filter((r) => r.status === 201)).toHaveLength(23);
    const full = await client.page('/account/keys');
    const refused = await client.request('/account/keys', { form: { _csrf: csrfOf(full.html), name: 'one more' } });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('You already have 25 active keys.');
    expect(await activeKeys(account!.id)).toBe(25);
  });

  it('an unknown account gets 404 and no key', async () => {
    const res = await admin(`/api/v1/admin/accounts/${crypto.randomUUID()}/keys`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });
}

describe('API key cap on PGlite', () => {
  const pglite = usePgliteTestApp();
  capSuite(() => pglite.t);
});

describePg('API key cap on a real PostgreSQL server', () => {
  // 30 connections: the 30 creates race on separate connections.
  const pg = usePostgresTestApp({ connections: 30 });
  capSuite(() => pg.t);
});
