import { z } from 'zod';
import { HEALTH_HIDE_AFTER_DAYS_DEFAULT } from './catalog/health-states';
import { defaultDailyLimits, type MembershipTier, type PlanKind } from './catalog/plans';

/**
 * Environment -> typed Config, validated once at start-up. Unset cloud variables select the
 * embedded local adapters; "local mode" means no DATABASE_URL (PGlite in DATA_DIR).
 */
const bool = (fallback?: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'true' || v === '1'));
/** An on/off switch (also true/false, 1/0), for settings an operator flips rather than programs. */
const toggle = (fallback: boolean) =>
  z
    .enum(['on', 'off', 'true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === 'on' || v === 'true' || v === '1'));
/** Connections the Node server keeps to PostgreSQL unless DATABASE_POOL_MAX says otherwise (see Config.databasePoolMax). */
export const DEFAULT_DATABASE_POOL_MAX = 4;

const int = (fallback: number, min = 0, max = 1_000_000) => z.coerce.number().int().min(min).max(max).default(fallback);
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalUrl = optionalString.pipe(z.url().optional());

const envSchema = z.object({
  PORT: int(8787, 0, 65535),
  HOST: z.string().default('127.0.0.1'),
  DATA_DIR: z.string().default('.data'),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
  ),
  DATABASE_POOL_MAX: int(DEFAULT_DATABASE_POOL_MAX, 1, 100),
  NEON_FETCH_ENDPOINT: optionalUrl,
  ADMIN_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  SITE_ORIGIN: optionalUrl,
  MEMBER_DAILY_LIMIT: int(defaultDailyLimits.member),
  MEMBER_FEATURE_DAILY_LIMIT: int(defaultDailyLimits.memberFeature),
  KEY_CACHE_TTL_SECONDS: int(60, 0, 60),
  UPSTASH_REDIS_REST_URL: optionalUrl,
  UPSTASH_REDIS_REST_TOKEN: optionalString,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl,
  LOCAL_PAYMENTS: bool(),
  STRIPE_PRICE_BASIC: optionalString,
  STRIPE_PRICE_FEATURED: optionalString,
  STRIPE_PRICE_SPONSORED: optionalString,
  STRIPE_PRICE_MEMBER: optionalString,
  STRIPE_PRICE_MEMBER_FEATURE: optionalString,
  STRIPE_PROMOTION_CODES: bool(false),
  STRIPE_AUTOMATIC_TAX: toggle(false),
  STRIPE_TAX_ID_COLLECTION: toggle(false),
  STRIPE_INVOICE_CREATION: toggle(false),
  QSTASH_TOKEN: optionalString,
  QSTASH_URL: optionalUrl,
  QSTASH_CURRENT_SIGNING_KEY: optionalString,
  QSTASH_NEXT_SIGNING_KEY: optionalString,
  CRAWL_MAX_ATTEMPTS: int(3, 1, 20),
  CRAWL_ALLOW_PRIVATE: bool(false),
  WEBHOOK_ALLOW_PRIVATE: bool(false),
  AUTO_APPROVE: bool(),
  REFUND_ON_REJECTION: bool(true),
  BLOCKED_DOMAINS: optionalString,
  MAIL_TRANSPORT: optionalString.pipe(z.enum(['http', 'outbox']).optional()),
  MAIL_API_URL: optionalUrl,
  MAIL_API_KEY: optionalString,
  MAIL_FROM: z.string().default('tooldir <noreply@tooldir.local>'),
  SIGNUP: z.enum(['open', 'closed']).default('open'),
  STATS_COUNTING: bool(true),
  STATS_WEEKLY_MAIL: bool(),
  HEALTH_HIDE_AFTER_DAYS: int(HEALTH_HIDE_AFTER_DAYS_DEFAULT, 0, 365),
  HEALTH_CHECKS: toggle(true),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Env = Record<string, string | undefined>;

export interface Config {
  local: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /**
   * Connections the Node server keeps to a PostgreSQL `DATABASE_URL` (node-postgres; Neon's HTTP driver and PGlite
   * have no pool). Few on purpose: more backends than the database's cores only share them, each statement then
   * costing more CPU (docs/bench.md "Searches nobody asked before, under load"). Requests beyond it wait their turn.
   */
  databasePoolMax: number;
  /** The operator token; required outside local mode (local mode generates one into DATA_DIR). */
  adminToken?: string;
  /** Our public origin (scheme://host[:port]); required outside local mode. See src/origin.ts. */
  siteOrigin?: string;
  dailyLimits: Record<MembershipTier, number>;
  keyCacheTtlMs: number;
  upstash?: { url: string; token: string };
  stripe?: {
    secretKey: string;
    apiUrl?: string;
    prices: Partial<Record<PlanKind | MembershipTier, string>>;
    /** Checkout accepts promotion codes; only a 100 % discount is honoured (docs/payments.md). */
    promotionCodes: boolean;
    /**
     * What Checkout collects for tax (docs/payments.md "Tax"): Stripe Tax computes it (automatic_tax; needs Stripe
     * Tax on the account), business buyers enter a tax ID, one-time payments get an invoice. All off by default.
     */
    tax: { automatic: boolean; idCollection: boolean; invoiceCreation: boolean };
  };
  stripeWebhookSecret?: string;
  /** Without Stripe: the local checkout simulator (default in local mode only). */
  localPayments: boolean;
  qstash?: { token: string; url?: string };
  qstashSigningKeys?: { current: string; next: string };
  crawl: { maxAttempts: number; allowPrivate: boolean };
  /** Tests and demos only: webhook targets may be loopback/private addresses, any port, plain http (docs/webhooks.md). */
  webhooks: { allowPrivate: boolean };
  autoApprove: boolean;
  /**
   * REFUND_ON_REJECTION: a paid submission an editor rejects before it ever went live is refunded in full, and the
   * pages that sell say so; false: no refund, and the pages say that instead (docs/payments.md "Refund on rejection").
   */
  refundOnRejection: boolean;
  blockedDomains: string[];
  /** Where mail goes; never chosen silently outside local mode (see mailTransport). */
  mail: MailConfig;
  mailFrom: string;
  signupOpen: boolean;
  /**
   * Re-checks of live tools (docs/health.md): days of failing before a listing is hidden (0: at the first failing
   * check), and whether the scheduled rounds run at all (off: only POST /api/jobs/recheck checks).
   */
  health: { hideAfterDays: number; checks: boolean };
  /**
   * Listing statistics (docs/stats.md): whether public pages count views, clicks, impressions and badge loads,
   * and whether owners of live tools get the weekly e-mail (off by default in local mode).
   */
  stats: { counting: boolean; weeklyMail: boolean };
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
}

export type MailConfig = { transport: 'http'; apiUrl: string; apiKey?: string } | { transport: 'outbox' };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Both halves of a pair must be set together, or neither. */
function pair(env: Env, a: string, b: string): void {
  if (Boolean(env[a]?.trim()) !== Boolean(env[b]?.trim())) {
    throw new ConfigError(`${env[a]?.trim() ? b : a} must be set together with ${env[a]?.trim() ? a : b}`);
  }
}

/** Parses and checks the environment once; the message names the offending variable. */
export function loadConfig(env: Env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  pair(env, 'UPSTASH_REDIS_REST_URL', 'UPSTASH_REDIS_REST_TOKEN');
  pair(env, 'QSTASH_CURRENT_SIGNING_KEY', 'QSTASH_NEXT_SIGNING_KEY');
  const e = parsed.data;
  const local = !e.DATABASE_URL;
  if (e.QSTASH_TOKEN && !e.QSTASH_CURRENT_SIGNING_KEY) {
    throw new ConfigError('QSTASH_CURRENT_SIGNING_KEY and QSTASH_NEXT_SIGNING_KEY must be set when QSTASH_TOKEN is');
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set when STRIPE_SECRET_KEY is');
  }
  const siteOrigin = e.SITE_ORIGIN === undefined ? undefined : originOf(e.SITE_ORIGIN);
  if (!local && !siteOrigin) {
    throw new ConfigError(
      'Invalid configuration: SITE_ORIGIN is required when DATABASE_URL is set (the public origin, e.g. https://tooldir.example; ' +
        'links, QStash job URLs and Origin checks use it, never the Host header)',
    );
  }
  if (!local && !e.ADMIN_TOKEN) {
    throw new ConfigError(
      'Invalid configuration: ADMIN_TOKEN is required when DATABASE_URL is set (the operator token, at least 16 characters; ' +
        'it also keys the hashes of sign-in codes, so it must be a secret of this deployment)',
    );
  }
  return {
    local,
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePoolMax: e.DATABASE_POOL_MAX,
    adminToken: e.ADMIN_TOKEN,
    siteOrigin,
    dailyLimits: { member: e.MEMBER_DAILY_LIMIT, memberFeature: e.MEMBER_FEATURE_DAILY_LIMIT },
    keyCacheTtlMs: e.KEY_CACHE_TTL_SECONDS * 1000,
    upstash:
      e.UPSTASH_REDIS_REST_URL && e.UPSTASH_REDIS_REST_TOKEN
        ? { url: e.UPSTASH_REDIS_REST_URL, token: e.UPSTASH_REDIS_REST_TOKEN }
        : undefined,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          apiUrl: e.STRIPE_API_URL,
          prices: {
            basic: e.STRIPE_PRICE_BASIC,
            featured: e.STRIPE_PRICE_FEATURED,
            sponsored: e.STRIPE_PRICE_SPONSORED,
            member: e.STRIPE_PRICE_MEMBER,
            memberFeature: e.STRIPE_PRICE_MEMBER_FEATURE,
          },
          promotionCodes: e.STRIPE_PROMOTION_CODES ?? false,
          tax: {
            automatic: e.STRIPE_AUTOMATIC_TAX,
            idCollection: e.STRIPE_TAX_ID_COLLECTION,
            invoiceCreation: e.STRIPE_INVOICE_CREATION,
          },
        }
      : undefined,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    localPayments: e.LOCAL_PAYMENTS ?? local,
    qstash: e.QSTASH_TOKEN ? { token: e.QSTASH_TOKEN, url: e.QSTASH_URL } : undefined,
    qstashSigningKeys:
      e.QSTASH_CURRENT_SIGNING_KEY && e.QSTASH_NEXT_SIGNING_KEY
        ? { current: e.QSTASH_CURRENT_SIGNING_KEY, next: e.QSTASH_NEXT_SIGNING_KEY }
        : undefined,
    crawl: { maxAttempts: e.CRAWL_MAX_ATTEMPTS, allowPrivate: e.CRAWL_ALLOW_PRIVATE ?? false },
    webhooks: { allowPrivate: e.WEBHOOK_ALLOW_PRIVATE ?? false },
    autoApprove: e.AUTO_APPROVE ?? local,
    refundOnRejection: e.REFUND_ON_REJECTION ?? true,
    blockedDomains: (e.BLOCKED_DOMAINS ?? '')
      .split(',')
      .map((d) => d.trim().toLowerCase())
      .filter(Boolean),
    mail: mailTransport(e, local),
    mailFrom: e.MAIL_FROM,
    signupOpen: e.SIGNUP === 'open',
    stats: { counting: e.STATS_COUNTING ?? true, weeklyMail: e.STATS_WEEKLY_MAIL ?? !local },
    health: { hideAfterDays: e.HEALTH_HIDE_AFTER_DAYS, checks: e.HEALTH_CHECKS },
    logLevel: e.LOG_LEVEL,
  };
}

/** SITE_ORIGIN must be an origin: http(s), no path, query, fragment or credentials (links append paths to it). */
function originOf(value: string): string {
  const url = new URL(value);
  const bare =
    (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash;
  if (!bare || url.username || url.password || /[?#]$/.test(value)) {
    throw new ConfigError(
      `Invalid configuration: SITE_ORIGIN must be an origin such as https://tooldir.example (http or https, no path, query or credentials)`,
    );
  }
  return url.origin;
}

/**
 * MAIL_API_URL selects the HTTP mail API. Without it, local mode keeps mail in the mail_outbox table and the
 * log (so a local user can read a sign-in code); anywhere else that would put sign-in codes in clear into the
 * database and the logs, so it takes an explicit MAIL_TRANSPORT=outbox (docs/deploy.md "Origins and mail").
 */
function mailTransport(e: z.infer<typeof envSchema>, local: boolean): MailConfig {
  const transport = e.MAIL_TRANSPORT ?? (e.MAIL_API_URL ? 'http' : local ? 'outbox' : undefined);
  if (transport === 'outbox') {
    if (e.MAIL_API_URL)
      throw new ConfigError(
        'Invalid configuration: MAIL_TRANSPORT=outbox and MAIL_API_URL exclude each other; unset one',
      );
    return { transport };
  }
  if (transport === 'http' && e.MAIL_API_URL) return { transport, apiUrl: e.MAIL_API_URL, apiKey: e.MAIL_API_KEY };
  throw new ConfigError(
    transport === 'http'
      ? 'Invalid configuration: MAIL_API_URL is required when MAIL_TRANSPORT=http'
      : 'Invalid configuration: MAIL_API_URL is required when DATABASE_URL is set (sign-in codes and notifications are mailed through it); ' +
          'MAIL_TRANSPORT=outbox keeps mail in the database and the log instead, unsafe for production',
  );
}
