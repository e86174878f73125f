// Cloudflare Workers entry (wrangler main): validates env once per isolate, builds deps, serves fetch + cron.
import { loadConfig, ConfigError, type Config, type Env } from '../src/config';
import { buildDeps } from '../src/build-deps';
import type { Deps } from '../src/deps';
import { createNeonHttpDb } from '../src/db/client';
import { runJob } from '../src/jobs/run-job';
import { rollUpStats } from '../src/stats/roll-up';
import { sendWeeklyReports } from '../src/stats/weekly-report';
import { STATS_REPORT_CRON, STATS_ROLLUP_CRON } from '../src/deploy/stats-crons';
import { RECHECK_CRON } from '../src/deploy/recheck-schedule';
import { runHealthRound } from '../src/health/run-round';
import { createR2MediaStore, isR2Bucket } from '../src/adapters/media/r2';
import { createWorkersPageCache } from '../src/adapters/page-cache/workers-cache';
import { createListingVersion } from '../src/adapters/page-cache/listing-version';
import { createAssetDisposableDomains } from '../src/adapters/disposable-domains/assets';
import { isAssetsBinding } from '../src/adapters/static-assets';
import { createAssetPublicSuffixes } from '../src/adapters/public-suffixes/assets';
import { createApp, type App } from './app';
import { ServiceError, errorBody } from '../src/errors';

let built: { app: App; deps: Deps } | undefined;

/** How stale a Worker's listing version may be before a background read replaces it (docs/pages.md "Caching"). */
const LISTING_VERSION_MAX_AGE_MS = 1000;

/**
 * The Worker's configuration: loadConfig's rules (outside local mode SITE_ORIGIN, ADMIN_TOKEN and a mail transport
 * are required) plus what only Workers need. Throws a ConfigError naming the variable.
 */
export function workerConfig(env: Env): Config & { databaseUrl: string } {
  const config = loadConfig(env);
  if (!config.databaseUrl) throw new ConfigError('Invalid configuration: DATABASE_URL is required on Workers');
  return { ...config, databaseUrl: config.databaseUrl };
}

/**
 * The R2 bucket our own copies of tools' images live in (wrangler.toml [[r2_buckets]], binding MEDIA;
 * docs/media.md). Required: an isolate's memory would lose them, and another isolate would answer 404.
 */
export function mediaBucket(bindings: Record<string, unknown>): R2Bucket {
  const bucket = bindings.MEDIA;
  if (!isR2Bucket(bucket))
    throw new ConfigError(
      'Invalid configuration: the R2 bucket binding MEDIA is required on Workers (wrangler.toml [[r2_buckets]])',
    );
  return bucket;
}

/**
 * The Worker's static assets (wrangler.toml [assets], binding ASSETS): the disposable-mail domain list lives there
 * because it is too large for the bundle (src/adapters/disposable-domains/types.ts). Required like MEDIA.
 */
export function assetsBinding(bindings: Record<string, unknown>) {
  const assets = bindings.ASSETS;
  if (!isAssetsBinding(assets))
    throw new ConfigError(
      'Invalid configuration: the static assets binding ASSETS is required on Workers (wrangler.toml [assets] binding)',
    );
  return assets;
}

/** One app per isolate; clients inside the adapters are created lazily on first use. */
function appFor(bindings: Record<string, unknown>) {
  if (built) return built;
  const env = stringEnv(bindings);
  const config = workerConfig(env);
  const db = createNeonHttpDb(config.databaseUrl, env.NEON_FETCH_ENDPOINT);
  const deps = buildDeps(config, db, {
    media: createR2MediaStore(mediaBucket(bindings)),
    // Public pages in the data center's cache, shared by its isolates; each isolate reads the listing version at
    // most once a second, in the background (a read per page view would be a Neon round trip each).
    pageCache: createWorkersPageCache((caches as unknown as { default: Cache }).default, config.siteOrigin ?? ''),
    listingVersion: createListingVersion(db, { maxAgeMs: LISTING_VERSION_MAX_AGE_MS }),
    disposableDomains: createAssetDisposableDomains(assetsBinding(bindings)),
    publicSuffixes: createAssetPublicSuffixes(assetsBinding(bindings)),
  });
  built = { app: createApp(deps), deps };
  return built;
}

function stringEnv(env: Record<string, unknown>): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string')) as Env;
}

export default {
  async fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response> {
    try {
      return await appFor(env).app.fetch(request, env, ctx);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // Nothing is cached on failure, so the log names the variable that is wrong now (env is fixed per deploy).
      console.error(error.message);
      const unconfigured = new ServiceError('service_unavailable', 'The service is not configured yet.');
      return Response.json(errorBody(unconfigured), { status: unconfigured.status });
    }
  },
  /**
   * Cron trigger fallbacks (QStash schedules the same jobs in production; either is enough, running both is
   * harmless): the sweep every 5 minutes, the statistics roll-up hourly, the weekly e-mail on Mondays, a round of
   * health re-checks every minute (two rounds at once share no tool: each claims its own).
   */
  async scheduled(controller: ScheduledController, env: Record<string, unknown>, ctx: ExecutionContext) {
    const { deps } = appFor(env);
    if (controller.cron === RECHECK_CRON) {
      if (deps.config.health.checks) ctx.waitUntil(runHealthRound(deps));
    } else if (controller.cron === STATS_ROLLUP_CRON) ctx.waitUntil(rollUpStats(deps));
    else if (controller.cron === STATS_REPORT_CRON) ctx.waitUntil(sendWeeklyReports(deps));
    else ctx.waitUntil(runJob(deps, 'sweep', {}));
  },
};
