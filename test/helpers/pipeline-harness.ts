// The real app with its pipeline running in-process: a bound local queue with a tiny retry delay, and a
// crawler transport that can only ever reach loopback (anything else FAILS THE TEST, even if the guard breaks).
import { sql } from 'drizzle-orm';
import ipaddr from 'ipaddr.js';
import type { Env } from '../../src/config';
import type { CrawlTransport, DepsOverrides } from '../../src/deps';
import { queryRows } from '../../src/db/client';
import { createLocalQueue } from '../../src/adapters/queue/local';
import type { OpenedDb } from '../../src/db/node-clients';
import { createLogger } from '../../src/log';
import { runJob } from '../../src/jobs/run-job';
import { createTestApp, type TestApp } from './test-app';

/** Failures recorded by the loopback-only transport; a test asserts this stays empty. */
export const networkViolations: string[] = [];

const isLoopback = (host: string) => {
  const h = host.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(h) && ipaddr.process(h).range() === 'loopback';
};

/**
 * A resolver that knows only `*.localhost` names (→ 127.0.0.1, RFC 6761) and a fetch that refuses every
 * other target (recording it); `*.localhost` URLs are fetched from 127.0.0.1 directly, never via system DNS.
 */
export function loopbackOnlyTransport(): CrawlTransport {
  return {
    resolver: async (hostname) => {
      if (hostname.endsWith('.localhost')) return ['127.0.0.1'];
      networkViolations.push(`resolve ${hostname}`);
      throw new Error(`test resolver: no DNS for ${hostname} in tests`);
    },
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      if (url.hostname.endsWith('.localhost')) {
        url.hostname = '127.0.0.1';
        return fetch(url, init);
      }
      if (!isLoopback(url.hostname)) {
        networkViolations.push(`fetch ${url.href}`);
        throw new Error(`test fetch: refusing non-loopback ${url.href}`);
      }
      return fetch(input, init);
    }) as typeof fetch,
  };
}

export interface PipelineApp extends TestApp {
  /** Resolves when the local queue has nothing running or waiting. */
  settle(): Promise<void>;
  submit(key: string, body: { name: string; url: string; email?: string; plan?: string }): Promise<string>;
  site(
    siteId: string,
  ): Promise<{
    status: string;
    crawl_attempts: number;
    crawl_error: string | null;
    crawl_error_kind: string | null;
    slug: string | null;
    live_url: string | null;
    metadata: Record<string, string | null> | null;
    review_checks: { passed: boolean } | null;
  }>;
  history(siteId: string): Promise<Array<{ from_status: string | null; to_status: string; note: string | null }>>;
}

export async function createPipelineApp(
  options: { env?: Env; overrides?: DepsOverrides; db?: OpenedDb } = {},
): Promise<PipelineApp> {
  const queue = createLocalQueue({ log: createLogger('silent'), retryDelayMs: 10 });
  const t = await createTestApp({
    env: { CRAWL_ALLOW_PRIVATE: 'true', CRAWL_MAX_ATTEMPTS: '3', ...options.env },
    overrides: { queue, crawl: loopbackOnlyTransport(), ...options.overrides },
    db: options.db,
  });
  queue.bind(async (step, message) => {
    await runJob(t.deps, step, message);
  });
  return {
    ...t,
    settle: () => queue.idle(),
    async submit(key, body) {
      const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json: body });
      if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { site_id: string }).site_id;
    },
    async site(siteId) {
      const [row] = await queryRows<Awaited<ReturnType<PipelineApp['site']>>>(
        t.deps.db,
        sql`SELECT status, crawl_attempts, crawl_error, crawl_error_kind, slug, live_url, metadata, review_checks FROM sites WHERE id = ${siteId}::uuid`,
      );
      if (!row) throw new Error(`no site ${siteId}`);
      const parse = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
      return {
        ...row,
        crawl_attempts: Number(row.crawl_attempts),
        metadata: parse(row.metadata),
        review_checks: parse(row.review_checks),
      };
    },
    history: (siteId) =>
      queryRows(
        t.deps.db,
        sql`SELECT from_status, to_status, note FROM site_history WHERE site_id = ${siteId}::uuid ORDER BY id`,
      ),
  };
}
