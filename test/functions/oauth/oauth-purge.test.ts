// The sweep's OAuth purge: spent state goes, what still matters (grants, live refresh tokens, used clients) stays.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { sha256Hex } from '../../../src/crypto';
import { purgeExpiredOAuth } from '../../../src/oauth/purge-expired';
import { connectedApp, createOAuthTestApp, newClient, type OAuthTestApp } from './oauth-harness';

let t: OAuthTestApp;
beforeAll(async () => {
  // Everything below happens "two days ago" by the app's clock; the purge compares with the database's now().
  t = await createOAuthTestApp({ overrides: { now: () => new Date(Date.now() - 2 * 86_400_000) } });
});
afterAll(() => t.close());

it('deletes expired codes and access tokens and abandoned registrations; keeps grants, live refresh tokens and used clients', async () => {
  const abandoned = await newClient(t);
  const { clientId, tokens } = await connectedApp(t);
  const exists = async (table: string, column: string, value: string) =>
    (await queryRows(t.deps.db, sql`SELECT 1 FROM ${sql.identifier(table)} WHERE ${sql.identifier(column)} = ${value}`))
      .length === 1;

  expect(await purgeExpiredOAuth(t.deps)).toBeGreaterThanOrEqual(3); // the code, the access token, the abandoned client
  expect(await exists('oauth_clients', 'id', abandoned)).toBe(false);
  expect(await exists('oauth_clients', 'id', clientId)).toBe(true);
  expect(await exists('oauth_tokens', 'token_hash', await sha256Hex(tokens.access_token))).toBe(false);
  expect(await exists('oauth_tokens', 'token_hash', await sha256Hex(tokens.refresh_token))).toBe(true);
  expect(await queryRows(t.deps.db, sql`SELECT 1 FROM oauth_codes WHERE client_id = ${clientId}`)).toEqual([]);
  expect(await queryRows(t.deps.db, sql`SELECT 1 FROM oauth_grants WHERE client_id = ${clientId}`)).toHaveLength(1);
});
