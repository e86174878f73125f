// Cloudflare Workers entry (wrangler main): validates env once per isolate, builds deps, serves fetch + cron.
import { loadConfig, ConfigError, type Env } from '../src/config';
import { buildDeps, type Deps } from '../src/deps';
import { createNeonHttpDb } from '../src/db/client';
import { runJob } from '../src/pipeline/run-job';
import { createApp, type App } from './app';

let built: { app: App; deps: Deps } | undefined;
let configError: ConfigError | undefined;

/** One app per isolate; clients inside the adapters are created lazily on first use. */
function appFor(env: Env) {
  if (built) return built;
  const config = loadConfig(env);
  if (!config.databaseUrl) throw new ConfigError('Invalid configuration: DATABASE_URL is required on Workers');
  if (!config.adminToken) throw new ConfigError('Invalid configuration: ADMIN_TOKEN is required on Workers');
  const deps = buildDeps(config, createNeonHttpDb(config.databaseUrl, env.NEON_FETCH_ENDPOINT));
  built = { app: createApp(deps), deps };
  return built;
}

function stringEnv(env: Record<string, unknown>): Env {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string')) as Env;
}

export default {
  async fetch(request: Request, env: Record<string, unknown>, ctx: ExecutionContext): Promise<Response> {
    try {
      return await appFor(stringEnv(env)).app.fetch(request, env, ctx);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      configError ??= error;
      console.error(configError.message);
      return Response.json(
        { error: { code: 'service_unavailable', message: 'The service is not configured yet.' } },
        { status: 503 },
      );
    }
  },
  /** Cron trigger fallback for the sweep (QStash schedules it in production; either is enough). */
  async scheduled(_controller: ScheduledController, env: Record<string, unknown>, ctx: ExecutionContext) {
    const { deps } = appFor(stringEnv(env));
    ctx.waitUntil(runJob(deps, 'sweep', {}));
  },
};
