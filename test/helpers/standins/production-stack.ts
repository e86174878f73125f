// Starts every production dependency at once (real PostgreSQL + Redis behind the Neon, Upstash, QStash, Stripe and
// mail API stand-ins) and hands back the environment variables that point the app at them.
import { type PostgresServer, startPostgres } from '../services/postgres';
import { type RedisServer, startRedis } from '../services/redis';
import { type MailStandIn, startMailStandIn } from './mail-api';
import { configureNeonClient, type NeonStandIn, startNeonStandIn } from './neon-http';
import { type QStashStandIn, startQStashStandIn } from './qstash-server';
import { startStripeStandIn, type StripeStandIn } from './stripe-api';
import { startUpstashStandIn, type UpstashStandIn } from './upstash-rest';

/** Every server of the stack plus the env (names as in src/config.ts) that selects the production adapters. */
export interface ProductionStack {
  postgres: PostgresServer;
  redis: RedisServer;
  neon: NeonStandIn;
  upstash: UpstashStandIn;
  qstash: QStashStandIn;
  stripe: StripeStandIn;
  mail: MailStandIn;
  /** Everything but SITE_ORIGIN, which names the app's own address: add it once the app's port is known. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** Fixed test secrets, so tests can sign webhooks and jobs for the stack. */
export const STACK_SECRETS = {
  stripeSecretKey: 'sk_test_stack_0000000000000000',
  stripeWebhookSecret: 'whsec_test_stack_0000000000000000',
  qstashCurrentSigningKey: 'sig_current_stack_000000000000',
  qstashNextSigningKey: 'sig_next_stack_00000000000000000',
} as const;

/**
 * Starts PostgreSQL, Redis and the four stand-ins, configures the global neonConfig, and returns the env.
 * Requires postgres and redis-server: gate the suite with requireService first.
 * @example
 * const stack = await startProductionStack();
 * const config = loadConfig({ ...stack.env, SITE_ORIGIN: `http://127.0.0.1:${port}` });
 */
export async function startProductionStack(options: { database?: string } = {}): Promise<ProductionStack> {
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => {});
  };
  try {
    const postgres = await startPostgres({ database: options.database });
    closers.push(() => postgres.close());
    const redis = await startRedis();
    closers.push(() => redis.close());
    const neon = await startNeonStandIn();
    closers.push(() => neon.close());
    const upstash = await startUpstashStandIn({ redisUrl: redis.url });
    closers.push(() => upstash.close());
    const qstash = await startQStashStandIn();
    closers.push(() => qstash.close());
    const stripe = await startStripeStandIn();
    closers.push(() => stripe.close());
    const mail = await startMailStandIn();
    closers.push(() => mail.close());
    configureNeonClient(neon);
    const env: Record<string, string> = {
      DATABASE_URL: postgres.connectionString,
      NEON_FETCH_ENDPOINT: neon.fetchEndpoint,
      UPSTASH_REDIS_REST_URL: upstash.url,
      UPSTASH_REDIS_REST_TOKEN: upstash.token,
      QSTASH_URL: qstash.url,
      QSTASH_TOKEN: qstash.token,
      QSTASH_CURRENT_SIGNING_KEY: STACK_SECRETS.qstashCurrentSigningKey,
      QSTASH_NEXT_SIGNING_KEY: STACK_SECRETS.qstashNextSigningKey,
      STRIPE_API_URL: stripe.url,
      STRIPE_SECRET_KEY: STACK_SECRETS.stripeSecretKey,
      STRIPE_WEBHOOK_SECRET: STACK_SECRETS.stripeWebhookSecret,
      STRIPE_PRICE_BASIC: 'price_test_basic',
      STRIPE_PRICE_FEATURED: 'price_test_featured',
      STRIPE_PRICE_SPONSORED: 'price_test_sponsored',
      STRIPE_PRICE_MEMBER: 'price_test_member',
      STRIPE_PRICE_MEMBER_FEATURE: 'price_test_member_feature',
      ...mail.env,
    };
    return { postgres, redis, neon, upstash, qstash, stripe, mail, env, close: closeAll };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
