import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig, type Env } from '../../src/config';
import { buildDeps } from '../../src/build-deps';
import type { Deps, DepsOverrides } from '../../src/deps';
import { openPglite, type OpenedDb } from '../../src/db/node-clients';
import { createLogger } from '../../src/log';
import { createApp, type App } from '../../functions/app';
import type { AppOptions } from '../../functions/types';
import { createPackageDisposableDomains } from '../../functions/node/disposable-domains';
import { createPackagePublicSuffixes } from '../../functions/node/public-suffixes';

/** A URL and a name no other test uses: tests isolate by fresh data, never by cleanup. */
export const uniqueUrl = (prefix = 'tool') => `https://${prefix}-${crypto.randomUUID().slice(0, 8)}.example`;
export const uniqueName = (base = 'Tool') => `${base} ${crypto.randomUUID().slice(0, 8)}`;

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const WEBHOOK_SECRET = 'whsec_test_secret_0123456789';

/** A migrated PGlite copied from the run's template (see test/global-setup.ts). */
export async function openTestDb(): Promise<OpenedDb & { dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-test-'));
  cpSync(inject('pgliteTemplate'), join(dir, 'pglite'), { recursive: true });
  const opened = await openPglite(join(dir, 'pglite'));
  return {
    ...opened,
    dir,
    close: async () => {
      await opened.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A Response whose json() is untyped: tests assert on the shape themselves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export interface TestApp {
  app: App;
  deps: Deps;
  /** app.request with a base URL of http://tooldir.test */
  request(path: string, init?: RequestInit & { json?: unknown; key?: string }): Promise<TestResponse>;
  /** A fresh account (isolation between tests) with one API key. */
  member(
    tier?: 'none' | 'member' | 'memberFeature',
  ): Promise<{ accountId: string; key: string; keyId: string; email: string }>;
  close(): Promise<void>;
}

export const testEnv = (env: Env = {}): Env => ({
  DATA_DIR: '/nonexistent',
  ADMIN_TOKEN,
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  SITE_ORIGIN: 'http://tooldir.test',
  LOG_LEVEL: 'silent',
  ...env,
});

let counter = 0;

/**
 * Tests send nothing beyond loopback: unless a test injects its own webhook transport
 * (test/helpers/webhook-receiver.ts), webhook targets cannot be resolved or fetched at all.
 */
const noWebhookNetwork = {
  resolver: async (hostname: string) => {
    throw new Error(`test app: no webhook DNS for ${hostname} (inject a webhook transport)`);
  },
  fetch: (async (input: RequestInfo | URL) => {
    throw new Error(`test app: no webhook fetch of ${String(input)} (inject a webhook transport)`);
  }) as typeof fetch,
};

/** The real app over a real (PGlite) database, through app.request: no sockets, no mocks. */
export async function createTestApp(
  options: { env?: Env; overrides?: DepsOverrides; db?: OpenedDb; app?: AppOptions } = {},
): Promise<TestApp> {
  const opened = options.db ?? (await openTestDb());
  const config = loadConfig(testEnv(options.env));
  // The real disposable-mail list from node_modules, as the Node server uses it (sign-in refuses those domains).
  const deps = buildDeps(config, opened.db, {
    log: createLogger('silent'),
    webhooks: noWebhookNetwork,
    disposableDomains: createPackageDisposableDomains(),
    publicSuffixes: createPackagePublicSuffixes(),
    // DNS domain proofs ask nothing of the network unless a test injects its resolver (test/helpers/domain-fixtures.ts).
    txt: async (name: string) => {
      throw new Error(`test app: no TXT lookup of ${name} (inject a txt resolver)`);
    },
    ...options.overrides,
  });
  const app = createApp(deps, options.app);
  const request: TestApp['request'] = (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.key) headers.set('authorization', `Bearer ${init.key}`);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(init.json);
    }
    return Promise.resolve(
      app.request(`http://tooldir.test${path}`, { ...init, headers, body }),
    ) as Promise<TestResponse>;
  };
  return {
    app,
    deps,
    request,
    async member(tier = 'member') {
      const email = `user${++counter}-${crypto.randomUUID().slice(0, 8)}@example.com`;
      // Each seed comes from its own address so seeding never meets the operator API's per-IP limit.
      const headers = { 'cf-connecting-ip': `198.51.100.${counter % 250}:${crypto.randomUUID()}` };
      const account = await request('/api/v1/admin/accounts', {
        method: 'POST',
        key: ADMIN_TOKEN,
        json: { email, tier },
        headers,
      });
      if (account.status !== 201) throw new Error(`seed account: ${account.status} ${await account.text()}`);
      const { account_id } = (await account.json()) as { account_id: string };
      const keyRes = await request(`/api/v1/admin/accounts/${account_id}/keys`, {
        method: 'POST',
        key: ADMIN_TOKEN,
        headers,
      });
      if (keyRes.status !== 201) throw new Error(`seed key: ${keyRes.status} ${await keyRes.text()}`);
      const { key, key_id } = (await keyRes.json()) as { key: string; key_id: string };
      return { accountId: account_id, key, keyId: key_id, email };
    },
    close: async () => {
      (deps.queue as { stop?: () => void }).stop?.();
      if (!options.db) await opened.close();
    },
  };
}

/**
 * A test app on the embedded database, set up before the calling describe block's tests and closed after them: the
 * PGlite side of a suite that runs on both databases, beside usePostgresTestApp (./services/postgres-test-app.ts).
 */
export function usePgliteTestApp(): { readonly t: TestApp } {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(() => app?.close());
  return {
    get t() {
      return app!;
    },
  };
}
