// The composition root: buildDeps(config, db) picks each adapter from configuration alone (the types: src/deps.ts).
import type { Config } from './config';
import type { Db } from './db/client';
import type { Deps, DepsOverrides, CrawlTransport } from './deps';
import type { Mailer } from './adapters/mail/types';
import { createUpstashStatsStore } from './adapters/stats/upstash';
import { createDatabaseStatsStore } from './adapters/stats/database';
import { noDisposableDomains } from './adapters/disposable-domains/list';
import { noPublicSuffixes } from './adapters/public-suffixes/list';
import type { Logger } from './log';
import { createLogger } from './log';
import { KeyCache } from './key-cache';
import { createLocalPayments } from './adapters/payments/local';
import { membershipPrices, planPrices } from './catalog/plans';
import { createStripePayments } from './adapters/payments/stripe';
import { createUnconfiguredPayments } from './adapters/payments/unconfigured';
import { createLocalQueue } from './adapters/queue/local';
import { createQStashQueue } from './adapters/queue/qstash';
import { createMemoryLimiter } from './adapters/ratelimit/memory';
import { createUpstashLimiter } from './adapters/ratelimit/upstash';
import { createOutboxMailer } from './adapters/mail/outbox';
import { createHttpMailer } from './adapters/mail/http';
import { createMemoryMediaStore } from './adapters/media/memory';
import { createDohResolver } from './adapters/resolver/doh';
import { createDohTxtResolver } from './adapters/resolver/txt';
import { withReservedNames } from './crawler/reserved-names';
import { boundOrigin } from './origin';
import { createMemoryPageCache } from './adapters/page-cache/memory';
import { createListingVersion } from './adapters/page-cache/listing-version';
import { createStatementBatching } from './db/statement-batching';

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
      overrides.limiter ?? (config.upstash ? createUpstashLimiter({ ...config.upstash, log }) : createMemoryLimiter()),
    mail: overrides.mail ?? createMailer(config, db, log),
    stats: overrides.stats ?? (config.upstash ? createUpstashStatsStore(config.upstash) : createDatabaseStatsStore(db)),
    crawl: overrides.crawl ?? defaultCrawlTransport(),
    media: overrides.media ?? createMemoryMediaStore(),
    webhooks: overrides.webhooks ?? defaultCrawlTransport(),
    pageCache: overrides.pageCache ?? createMemoryPageCache(),
    listingVersion: overrides.listingVersion ?? createListingVersion(db, { maxAgeMs: 0 }),
    batching: overrides.batching ?? createStatementBatching({ slots: Infinity }),
    disposableDomains: overrides.disposableDomains ?? noDisposableDomains,
    publicSuffixes: overrides.publicSuffixes ?? noPublicSuffixes,
    txt: overrides.txt ?? createDohTxtResolver({ fetch: (input, init) => fetch(input, init) }),
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
    log.warn(
      'MAIL_TRANSPORT=outbox: mail is never delivered; sign-in codes are kept in mail_outbox and logged (not for production)',
    );
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
