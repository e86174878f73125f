// Starts the real tooldir server (functions/node.ts) on a free loopback port with a temp DATA_DIR,
// and creates accounts and keys through the operator API.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface LocalServer {
  url: string;
  adminToken: string;
  stop(): Promise<void>;
  /** A new account with one API key; tier `member` submits directly, `none` gets 402. */
  account(tier: 'none' | 'member' | 'memberFeature'): Promise<{ accountId: string; key: string }>;
}

export async function startLocalServer(extraEnv: Record<string, string> = {}): Promise<LocalServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tooldir-e2e-data-'));
  // A copy of the run's migrated template (test/global-setup.ts) spares the server its cold start.
  await cp(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  const adminToken = randomBytes(24).toString('hex');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/node.ts'], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  await waitUntilUp(url, child, () => log);

  return {
    url,
    adminToken,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(dataDir, { recursive: true, force: true });
    },
    account: (tier) => createAccountWithKey(url, adminToken, tier),
  };
}

/** Creates an account of `tier` and issues it a key, through the operator API (bearer ADMIN_TOKEN). */
export async function createAccountWithKey(
  url: string,
  adminToken: string,
  tier: 'none' | 'member' | 'memberFeature',
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

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const response = await fetch(`${url}/api/v1/openapi.json`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGTERM');
  throw new Error(`server did not answer on ${url}:\n${log()}`);
}

/** A loopback port nothing listens on (free at the time of asking). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
