import type { Context, MiddlewareHandler } from 'hono';
import { impressionCounter, isPlacement, placementOf, type StatEvent } from '../../src/stats/counters';
import { countEvents } from '../../src/stats/count';
import { isCountedRequest } from '../../src/stats/who-counts';
import { isSlug } from '../../src/pipeline/slug';
import type { AppEnv } from '../types';
import { clientIp } from './client-ip';

// Counting of listing statistics at the edge (docs/stats.md): one middleware on the counted paths that reads
// the request's path, its client group and page key and the response's status, and counts after the response
// through deps.defer.
// Impressions are declared by the page that drew the cards, in a response header this middleware removes.
// A response answered by a cache layer inside this middleware (the header travels with the cached copy) is
// counted like a fresh one. Each event names its source, the client group and the page (its page-cache key), so
// one client moves a counter only a few times a day and a card once per page (src/stats/per-client-bounds.ts).

/** Where the card pages declare the cards they drew: `slug placement` tokens, comma-separated. Never sent out. */
export const IMPRESSIONS_HEADER = 'x-tooldir-impressions';

/** The paths this middleware counts (app.ts mounts it on exactly these). */
export const COUNTED_PATHS = ['/', '/categories/*', '/tools/*', '/go/*', '/badge/*'] as const;

/** Declares one impression per card drawn on this page render (sponsored and featured placements apart). */
export function declareImpressions(
  c: Context<AppEnv>,
  cards: readonly { slug: string; is_sponsor: boolean; is_feature: boolean }[],
): void {
  if (cards.length) c.header(IMPRESSIONS_HEADER, cards.map((card) => `${card.slug} ${placementOf(card)}`).join(','));
}

const ok = (status: number) => status === 200 || status === 304;

/** What one answered request counts: a pure function of the path, the status and the declared impressions. */
export function eventsOf(path: string, status: number, impressions: string | null): StatEvent[] {
  const [, section, name = '', extra] = path.split('/');
  if (extra === undefined) {
    if (section === 'tools' && ok(status) && isSlug(name)) return [{ slug: name, counter: 'views' }];
    if (section === 'go' && status === 302 && isSlug(name)) return [{ slug: name, counter: 'clicks' }];
    const badge = section === 'badge' && name.endsWith('.svg') ? name.slice(0, -'.svg'.length) : '';
    if (badge && ok(status) && isSlug(badge)) return [{ slug: badge, counter: 'badge_loads' }];
  }
  if (!impressions || status !== 200) return [];
  return impressions.split(',').flatMap((token) => {
    const [slug = '', placement] = token.split(' ');
    return isSlug(slug) && isPlacement(placement) ? [{ slug, counter: impressionCounter(placement) }] : [];
  });
}

export const countListingEvents: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const impressions = c.res.headers.get(IMPRESSIONS_HEADER);
  if (impressions !== null) {
    try {
      c.res.headers.delete(IMPRESSIONS_HEADER);
    } catch {
      // A response with immutable headers (e.g. straight from a cache): copy it without the header.
      const copy = new Response(c.res.body, c.res);
      copy.headers.delete(IMPRESSIONS_HEADER);
      c.res = undefined;
      c.res = copy;
    }
  }
  if (c.req.method !== 'GET') return;
  const events = eventsOf(c.req.path, c.res.status, impressions);
  // The bot check runs only when there is something to count.
  if (events.length && isCountedRequest((name) => c.req.header(name))) {
    countEvents(c.get('deps'), events, { client: clientIp(c), page: c.get('pageKey') ?? c.req.path });
  }
};
