// The Deps a verb receives: types only. What builds them from configuration is src/build-deps.ts.
import type { Config } from './config';
import type { Db } from './db/client';
import type { PaymentsAdapter } from './adapters/payments/types';
import type { JobQueue } from './adapters/queue/types';
import type { RateLimiter } from './adapters/ratelimit/types';
import type { Mailer } from './adapters/mail/types';
import type { MediaStore } from './adapters/media/types';
import type { StatsStore } from './adapters/stats/types';
import type { DisposableDomains } from './adapters/disposable-domains/types';
import type { Logger } from './log';
import type { KeyCache } from './key-cache';
import type { Resolver } from './adapters/resolver/resolver';
import type { TxtResolver } from './adapters/resolver/resolver';
import type { PublicSuffixes } from './adapters/public-suffixes/types';
import type { PageCache } from './adapters/page-cache/types';
import type { ListingVersion } from './adapters/page-cache/listing-version';
import type { StatementBatching } from './db/statement-batching';

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
   * Calls of one statement that wait for a connection, read together (src/db/statement-batching.ts): never by
   * default; the Node server over a pool batches the searches that wait (src/directory/ranked-pages.ts).
   */
  batching: StatementBatching;
  /**
   * The disposable-mail domains sign-in refuses (src/accounts/disposable-mail.ts): the entries pass the list from
   * the Worker's static assets or from node_modules; the default refuses nothing.
   */
  disposableDomains: DisposableDomains;
  /**
   * What DNS domain proofs read TXT records with (src/domains/dns-proof.ts): DNS over HTTPS by default (Workers),
   * Node's resolver on the Node entry; tests inject one that answers only the names they expect.
   */
  txt: TxtResolver;
  /** The Public Suffix List (src/domain-names.ts): the entries pass it from the Worker's static assets or from node_modules. */
  publicSuffixes: PublicSuffixes;
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
