// The real tooldir server for CLI e2e tests: `npm start`'s entry as a child process (the lead's
// test/helpers/child-server) on a temp DATA_DIR seeded from the run's migrated PGlite template,
// plus accounts and keys through the operator API.
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { startChildServer } from '../../helpers/child-server';

export { freePort } from '../../helpers/child-server';

export type Tier = 'none' | 'member' | 'memberFeature';

export interface LocalServer {
  url: string;
  stop(): Promise<void>;
  /** A new account with one API key; tier `member` submits directly, `none` gets 402. */
  account(tier: Tier): Promise<{ accountId: string; key: string }>;
}

export async function startLocalServer(env: Record<string, string> = {}): Promise<LocalServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tooldir-e2e-cli-'));
  // A copy of the migrated template (test/global-setup.ts) spares the server its cold start.
  await cp(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  const server = await startChildServer({ dataDir, env });
  const adminToken = server.adminToken();
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
    account: (tier) => createAccountWithKey(server.url, adminToken, tier),
  };
}

/** Creates an account of `tier` and issues it a key, through the operator API (bearer ADMIN_TOKEN). */
export async function createAccountWithKey(
  url: string,
  adminToken: string,
  tier: Tier,
): Promise<{ accountId: string; key: string }> {
  const admin = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}/api/v1/admin${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (response.status !== 201) throw new Error(`admin ${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const created = await admin('/accounts', { email: `cli-${randomBytes(6).toString('hex')}@example.com`, tier });
  const issued = await admin(`/accounts/${String(created.account_id)}/keys`, { name: 'cli e2e' });
  return { accountId: String(created.account_id), key: String(issued.key) };
}
