import type { ExecutionContext } from 'hono';
import type { TestApp } from './test-app';
import { rollUpStats } from '../../src/stats/roll-up';

/** A desktop browser's user agent: what people send (bots and agent-less requests are not counted). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/**
 * Requests to a test app as a person's browser would make them, with an ExecutionContext whose waitUntil keeps
 * what the request deferred (the counting), so a test can wait for exactly that work before it reads numbers.
 */
export function statsHarness(t: TestApp) {
  const pending: Promise<unknown>[] = [];
  const ctx: ExecutionContext = { waitUntil: (p) => void pending.push(p), passThroughOnException() {}, props: {} };
  return {
    /** GET (or `init.method`) as a browser, the counting deferred into this harness. */
    visit(path: string, init: RequestInit = {}) {
      const headers = new Headers(init.headers);
      if (!headers.has('user-agent')) headers.set('user-agent', BROWSER_UA);
      return Promise.resolve(t.app.request(`http://tooldir.test${path}`, { ...init, headers }, undefined, ctx));
    },
    /** Waits for every deferred write so far. */
    async settle() {
      while (pending.length) await Promise.all(pending.splice(0));
    },
    /** Settles, rolls today (and yesterday) up, and reads one site's stats through the REST endpoint. */
    async statsOf(siteId: string, key: string, query = '') {
      await this.settle();
      await rollUpStats(t.deps);
      const res = await t.request(`/api/v1/sites/${siteId}/stats${query}`, { key });
      if (res.status !== 200) throw new Error(`stats: ${res.status} ${await res.text()}`);
      return res.json();
    },
  };
}

/** A day's counters with every one zero but the given ones. */
export const only = (counts: Partial<Record<'views' | 'clicks' | 'impressions' | 'badge_loads', number>>) => ({
  views: 0,
  clicks: 0,
  impressions: 0,
  badge_loads: 0,
  ...counts,
});
