// Local entry: the same app on Node with embedded defaults (PGlite, local payments, queue, limits, mail).
import { serve, type HttpBindings } from '@hono/node-server';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config, type Env } from '../src/config';
import { buildDeps } from '../src/build-deps';
import type { Deps, DepsOverrides } from '../src/deps';
import { createNeonHttpDb } from '../src/db/client';
import {
  openNodePostgres,
  openPglite,
  preparePgliteSeed,
  SERVER_POOL_IDLE_MS,
  type OpenedDb,
} from '../src/db/node-clients';
import { withRequestedKeyBackfill, runRequestedKeyBackfill } from '../src/submissions/requested-key-backfill';
import { runJob } from '../src/jobs/run-job';
import { runSweep } from '../src/jobs/sweep';
import { announceWebhookEvents } from '../src/webhooks/announce';
import { withReservedNames } from '../src/crawler/reserved-names';
import { createNodeDnsResolver } from '../src/adapters/resolver/node-dns';
import { createNodeTxtResolver } from '../src/adapters/resolver/node-txt';
import { createPackagePublicSuffixes } from './node/public-suffixes';
import { createPinnedFetch } from '../src/crawler/pinned-fetch';
import { createFilesystemMediaStore } from '../src/adapters/media/filesystem';
import { boundOrigin } from '../src/origin';
import { localSecret, makeAdminToken, makeWebhookSecret } from './node/local-secrets';
import { createNodeExecutionContext } from './node/execution-context';
import { startLocalStatsTimers } from './node/stats-timers';
import { startLocalHealthTimer } from './node/health-timers';
import { createPackageDocsAssets } from './node/docs-assets';
import { createPackageDisposableDomains } from './node/disposable-domains';
import { applyConnectionTimeouts } from './node/connection-timeouts';
import type { AppOptions } from './types';
import { bannerText } from './node/banner';
import { stopOnSignals } from './node/stop-signals';
import { deferWasmTierUp } from './node/wasm-tiering';
import { createStatementBatching, slotsOfPool } from '../src/db/statement-batching';

export interface NodeServer {
  url: string;
  port: number;
  deps: Deps;
  config: Config;
  adminToken?: string;
  close(): Promise<void>;
}

/** The database as the Node entry opens it: migrated, plus the report of a backfill a migration asked for. */
type OpenedDatabase = OpenedDb & {
  keyBackfill?: Awaited<ReturnType<typeof runRequestedKeyBackfill>>;
  /** Connections of a pool (node-postgres); none for PGlite's one and Neon's HTTP driver. */
  poolMax?: number;
};

async function openDatabase(config: Config): Promise<OpenedDatabase> {
  if (!config.databaseUrl) return withRequestedKeyBackfill(await openPglite(resolve(config.dataDir, 'pglite')));
  if (/\.neon\.tech(:\d+)?\//.test(config.databaseUrl)) {
    return { db: createNeonHttpDb(config.databaseUrl), close: async () => {} };
  }
  return {
    ...(await withRequestedKeyBackfill(
      await openNodePostgres(config.databaseUrl, { max: config.databasePoolMax, idleMs: SERVER_POOL_IDLE_MS }),
    )),
    poolMax: config.databasePoolMax,
  };
}

/** Local mode fills in the secrets a new user should not have to invent, and keeps them in DATA_DIR. */
function withLocalSecrets(env: Env): Env {
  if (env.DATABASE_URL?.trim()) return env;
  const dataDir = env.DATA_DIR?.trim() || '.data';
  return {
    ...env,
    ADMIN_TOKEN: env.ADMIN_TOKEN?.trim() || localSecret(dataDir, 'admin-token', makeAdminToken).value,
    STRIPE_WEBHOOK_SECRET:
      env.STRIPE_WEBHOOK_SECRET?.trim() || localSecret(dataDir, 'stripe-webhook-secret', makeWebhookSecret).value,
  };
}

/** Starts the service; used by `npm start` and by tests that want the real server in-process. */
export async function startNodeServer(
  env: Env = process.env,
  options: {
    overrides?: DepsOverrides;
    app?: AppOptions;
    quiet?: boolean;
    /** false: no local sweep (a bench that counts every statement must not see the sweep's). */
    localSweeper?: boolean;
  } = {},
): Promise<NodeServer> {
  const config = loadConfig(withLocalSecrets(env));
  // The app graph (zod-openapi, MCP SDK, Stripe) loads while PGlite compiles and opens: a faster cold start.
  const [opened, { createApp }] = await Promise.all([openDatabase(config), import('./app')]);
  const deps = buildDeps(config, opened.db, {
    ...nodeTransports(config),
    // Our own copies of tools' images, as files named by content hash (docs/media.md).
    media: createFilesystemMediaStore(resolve(config.dataDir, 'media')),
    // The disposable-mail domains sign-in refuses, from node_modules (src/adapters/disposable-domains/).
    disposableDomains: createPackageDisposableDomains(),
    // DNS domain proofs ask the operating system's resolver (src/domains/dns-proof.ts).
    txt: createNodeTxtResolver(),
    publicSuffixes: createPackagePublicSuffixes(),
    // Over a pool, searches that wait for a connection are read together (src/directory/ranked-pages.ts).
    ...(opened.poolMax !== undefined && { batching: createStatementBatching({ slots: slotsOfPool(opened.poolMax) }) }),
    ...options.overrides,
  });
  if (opened.keyBackfill) logKeyBackfill(deps, opened.keyBackfill);
  const queue = deps.queue as Partial<{
    bind(r: (s: Parameters<typeof runJob>[1], m: Parameters<typeof runJob>[2]) => Promise<void>): void;
    stop(): void;
  }>;
  queue.bind?.(async (step, message) => {
    await runJob(deps, step, message);
  });
  const app = createApp(deps, { docsAssets: createPackageDocsAssets(), ...options.app });
  const deferred = createNodeExecutionContext();
  const server = await new Promise<ReturnType<typeof serve>>((ready) => {
    const s = serve(
      {
        fetch: (request, bindings) =>
          app.fetch(request, { clientIp: (bindings as HttpBindings).incoming.socket.remoteAddress }, deferred.ctx),
        port: config.port,
        hostname: config.host,
      },
      () => ready(s),
    );
    // Set before the first connection is accepted (listen completes after this synchronous code).
    applyConnectionTimeouts(s as Server);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = boundOrigin(config.host, port);
  if (!config.siteOrigin) deps.origin = url; // local mode's origin is the address actually bound (PORT=0 too)
  const stopSweeper = options.localSweeper === false ? () => {} : startLocalSweeper(deps);
  const stopStatsTimers = options.localSweeper === false ? () => {} : startLocalStatsTimers(deps);
  const stopHealthTimer = options.localSweeper === false ? () => {} : startLocalHealthTimer(deps);
  return {
    url,
    port,
    deps,
    config,
    adminToken: config.adminToken,
    close: async () => {
      stopSweeper();
      stopStatsTimers();
      stopHealthTimer();
      queue.stop?.();
      await new Promise<void>((done) => server.close(() => done()));
      await deferred.drain(); // work deferred by the last requests still needs the database
      await opened.close();
    },
  };
}

/** A backfill that found rows now sharing a key needs an operator: say so at warn level (docs/deploy.md). */
function logKeyBackfill(deps: Deps, report: NonNullable<OpenedDatabase['keyBackfill']>): void {
  const fields = {
    rules: report.rules,
    updated: report.updated,
    collisions: report.collisions,
    unparsable: report.unparsable,
  };
  if (report.collisions.length > 0 || report.unparsable.length > 0)
    deps.log.warn('duplicate keys recomputed; some rows need a decision', fields);
  else deps.log.info('duplicate keys recomputed', fields);
}

/**
 * Node resolves with the system DNS (special-use names such as *.example answered locally, never queried)
 * and connects only to the addresses the policy accepted: the crawler's under CRAWL_ALLOW_PRIVATE, webhook
 * deliveries' under WEBHOOK_ALLOW_PRIVATE.
 */
function nodeTransports(config: Config): Pick<DepsOverrides, 'crawl' | 'webhooks'> {
  const resolver = withReservedNames(createNodeDnsResolver());
  return {
    crawl: { resolver, fetch: createPinnedFetch({ resolver, allowPrivate: config.crawl.allowPrivate }) },
    webhooks: { resolver, fetch: createPinnedFetch({ resolver, allowPrivate: config.webhooks.allowPrivate }) },
  };
}

const SWEEP_INTERVAL_MS = 60_000;
/** PGlite runs each query on the main thread: the start-up sweep waits until the first requests are served. */
const STARTUP_SWEEP_DELAY_MS = 1_000;

/**
 * The in-process queue survives nothing, so the sweep is what recovers after a restart: once at start-up
 * for everything that stopped moving before this process started (that work was in the dead process's queue;
 * only for the local queue), then every minute with the normal thresholds. With QStash, its schedule runs the
 * sweep. The start-up thresholds are the process's age, not zero: a crawl this process claimed in its first
 * second is in flight, and ending it would cost the site an attempt. Returns the function that stops both timers.
 */
function startLocalSweeper(deps: Deps): () => void {
  if (deps.queue.kind !== 'local') return () => {};
  const startedAt = Date.now();
  // Webhook deliveries too: at start-up every due one lost its in-memory retry (src/webhooks/dispatch.ts).
  const sweep = (options?: Parameters<typeof runSweep>[1]) =>
    runSweep(deps, options)
      .then(() => announceWebhookEvents(deps, { sweep: true, overdueForMs: options ? 0 : undefined }))
      .catch((error: unknown) => deps.log.error('sweep failed', { err: String(error) }));
  // The delay counts from the event loop's first turn after listening, not from listening: the main thread can stay
  // busy a second or more after listen on a loaded 2-core box, and a timer armed at listen then fell due before the
  // loop first polled (timers run before the poll phase), so the sweep's statements ran before the waiting first
  // request was even accepted (2.5 s of a restart under load). setImmediate runs after that first poll.
  let startup: ReturnType<typeof setTimeout> | undefined;
  const arm = setImmediate(() => {
    startup = setTimeout(() => {
      const age = Date.now() - startedAt;
      void sweep({ queuedForMs: age, crawlingForMs: age });
    }, STARTUP_SWEEP_DELAY_MS);
    startup.unref();
  });
  const timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
  arm.unref();
  timer.unref();
  return () => {
    clearImmediate(arm);
    clearTimeout(startup);
    clearInterval(timer);
  };
}

/** `npm start` (through bin/server/start.js and its bundle) and `npm run start:source`: serve until a signal. */
export async function main() {
  deferWasmTierUp();
  try {
    const server = await startNodeServer();
    console.log(bannerText({ url: server.url, config: server.config, mailKind: server.deps.mail.kind }));
    stopOnSignals(() => server.close());
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}

/** For bin/server/prepare.js (npm's postinstall), through the bundle. */
export { preparePgliteSeed };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
