import type { Config } from './config';
import type { Db } from './db/client';
import type { PaymentsAdapter } from './adapters/payments/types';
import type { JobQueue } from './adapters/queue/types';
import type { RateLimiter } from './adapters/ratelimit/types';
import type { Mailer } from './adapters/mail/types';
import type { MediaStore } from './adapters/media/types';
import type { StatsStore } from './adapters/stats/types';
import { createUpstashStatsStore } from './adapters/stats/upstash';
import { createDatabaseStatsStore } from './adapters/stats/database';
import type { DisposableDomains } from './adapters/disposable-domains/types';
import { noDisposableDomains } from './adapters/disposable-domains/list';
import type { Logger } from './log';
import { createLogger } from './log';
import { KeyCache } from './accounts/key-cache';
import { createLocalPayments } from './adapters/payments/local';
import { membershipPrices, planPrices } from './submissions/plans';
import { createStripePayments } from './adapters/payments/stripe';
import { createUnconfiguredPayments } from './adapters/payments/unconfigured';
import { createLocalQueue } from './adapters/queue/local';
import { createQStashQueue } from './adapters/queue/qstash';
import { createMemoryLimiter } from './adapters/ratelimit/memory';
import { createUpstashLimiter } from './adapters/ratelimit/upstash';
import { createOutboxMailer } from './adapters/mail/outbox';
import { createHttpMailer } from './adapters/mail/http';
import { createMemoryMediaStore } from './adapters/media/memory';
import type { Resolver } from './adapters/resolver/resolver';
import { createDohResolver } from './adapters/resolver/doh';
import { withReservedNames } from './crawler/reserved-names';
import { boundOrigin } from './origin';
import type { PageCache } from './adapters/page-cache/types';
import { createMemoryPageCache } from './adapters/page-cache/memory';
import { createListingVersion, type ListingVersion } from './directory/listing-version';

/** Everything a verb may use. Built once per process/isolate; `origin` and `defer` are bound per request. */
export interface Deps {
  config: Config;
  db: Db;
  payments: PaymentsAdapter;
  queue: JobQueue;
  limiter: RateLimiter;
  mail: Mailer;
  log: Logger;
  keyCache: KeyCache;
  now: () => Date;
  /**
   * Our origin (src/origin.ts): SITE_ORIGIN, else in local mode the bound address, which a request whose Host
   * is a loopback name narrows to its own origin. Never taken from any other Host header.
   */
  origin: string;
  /** Runs work off the response path (waitUntil on Workers); failures are logged, never thrown. */
  defer: (work: Promise<unknown>) => void;
  /** What the crawler resolves and fetches with: DoH + global fetch by default; the Node entry pins DNS. */
  crawl: CrawlTransport;
  /**
   * Our own copies of tools' images (docs/media.md): the entries pass the R2 bucket binding (Workers)
   * or DATA_DIR/media (Node); the in-memory default serves tests.
   */
  media: MediaStore;
  /**
   * Where listing statistics are counted (docs/stats.md): Upstash Redis counters when UPSTASH_REDIS_REST_* are
   * set, else the stat_counters table of this database. The roll-up reads either back into site_stats_daily.
   */
  stats: StatsStore;
  /** What webhook deliveries resolve and POST with (src/webhooks/send-event.ts); the Node entry pins DNS here too. */
  webhooks: WebhookTransport;
  /**
   * Public pages kept for everyone (docs/pages.md "Caching"): in memory by default, the Cache API on Workers.
   * Served only at the listing version they were rendered at.
   */
  pageCache: PageCache;
  /** The listing version as this process knows it: exact by default (one read per check), Workers read it at most once a second. */
  listingVersion: ListingVersion;
  /**
   * The disposable-mail domains sign-in refuses (src/accounts/disposable-mail.ts): the entries pass the list from
   * the Worker's static assets or from node_modules; the default refuses nothing.
   */
  disposableDomains: DisposableDomains;
}

/** The crawler's network seam; tests inject a resolver and a fetch that refuse anything but loopback. */
export interface CrawlTransport {
  resolver: Resolver;
  fetch: typeof fetch;
  /** Deadline of one crawl attempt; default CRAWL_DEFAULTS.timeoutMs (tests shorten it to reach a timeout). */
  timeoutMs?: number;
}

/**
 * The webhook sender's seams. Tests inject a resolver and a fetch that refuse anything but loopback, a short
 * timeout (to reach one without waiting 10 s) and a fast retry schedule for the local queue.
 */
export interface WebhookTransport {
  resolver: Resolver;
  fetch: typeof fetch;
  /** Deadline of one attempt; default WEBHOOK_TIMEOUT_MS (10 s). */
  timeoutMs?: number;
  /** The local queue's wait before retry n (0-based), in ms; default the schedule of src/webhooks/backoff.ts. */
  retryDelayMs?: (retried: number) => number;
}

export type DepsOverrides = Partial<Omit<Deps, 'config' | 'db'>>;

/** Picks every adapter from configuration alone: unset cloud variables mean the embedded local one. */
export function buildDeps(config: Config, db: Db, overrides: DepsOverrides = {}): Deps {
  const log = overrides.log ?? createLogger(config.logLevel);
  const now = overrides.now ?? (() => new Date());
  // The Node entry replaces the configured port with the one it actually bound (PORT=0).
  const origin = config.siteOrigin ?? boundOrigin(config.host, config.port);
  const deps: Deps = {
    config,
    db,
    log,
    now,
    origin,
    keyCache: overrides.keyCache ?? new KeyCache(config.keyCacheTtlMs),
    payments:
      overrides.payments ??
      (config.stripe
        ? createStripePayments(config.stripe, now)
        : config.localPayments
          ? createLocalPayments(planPrices, now, membershipPrices)
          : createUnconfiguredPayments()),
    queue:
      overrides.queue ??
      (config.qstash
        ? createQStashQueue({ token: config.qstash.token, baseUrl: config.qstash.url, jobsOrigin: () => deps.origin })
        : createLocalQueue({ log })),
    limiter:
      overrides.limiter ??
      (config.upstash ? createUpstashLimiter({ ...config.upstash, log }) : createMemoryLimiter()),
    mail: overrides.mail ?? createMailer(config, db, log),
    stats: overrides.stats ?? (config.upstash ? createUpstashStatsStore(config.upstash) : createDatabaseStatsStore(db)),
    crawl: overrides.crawl ?? defaultCrawlTransport(),
    media: overrides.media ?? createMemoryMediaStore(),
    webhooks: overrides.webhooks ?? defaultCrawlTransport(),
    pageCache: overrides.pageCache ?? createMemoryPageCache(),
    listingVersion: overrides.listingVersion ?? createListingVersion(db, { maxAgeMs: 0 }),
    disposableDomains: overrides.disposableDomains ?? noDisposableDomains,
    defer:
      overrides.defer ??
      ((work) => {
        work.catch((error: unknown) => log.error('deferred work failed', { err: String(error) }));
      }),
  };
  return deps;
}

function createMailer(config: Config, db: Db, log: Logger): Mailer {
  if (config.mail.transport === 'http') return createHttpMailer({ ...config.mail, from: config.mailFrom });
  if (!config.local) {
    log.warn('MAIL_TRANSPORT=outbox: mail is never delivered; sign-in codes are kept in mail_outbox and logged (not for production)');
  }
  return createOutboxMailer(db, log);
}

/**
 * Workers-safe default (crawler and webhook deliveries alike): names resolve over DNS-over-HTTPS and every
 * resolved address is checked against the address policy before the request.
 */
function defaultCrawlTransport(): CrawlTransport {
  const fetchFn: typeof fetch = (input, init) => fetch(input, init);
  return { resolver: withReservedNames(createDohResolver({ fetch: fetchFn })), fetch: fetchFn };
}
