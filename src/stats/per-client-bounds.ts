import type { Config } from '../config';
import type { Gate } from '../adapters/stats/types';
import { prefix48Of } from '../rate-limits/client-group';
import { PREFIX_48_MULTIPLIER } from '../rate-limits/policies';
import type { StatCounter } from './counters';
import { visitorMark } from './visitor-marks';

// How often one client can move a counter (docs/stats.md "A few per client and day"): the rule, once. The engines
// apply it with the gates built here; they know marks and numbers, not clients.

/** Counts per client (an IPv4 address or an IPv6 /64), tool, counter and UTC day. */
export const DAILY_BOUND = { views: 3, clicks: 3, badge_loads: 3, impressions: 10 } as const;
/** A card counts once per page and client: a reload, or the same cached search again, adds nothing. */
export const IMPRESSIONS_PER_PAGE = 1;

const isImpression = (counter: StatCounter) => counter.startsWith('impressions_');
const boundOf = (counter: StatCounter): number =>
  isImpression(counter) ? DAILY_BOUND.impressions : DAILY_BOUND[counter as keyof typeof DAILY_BOUND];

/** Who caused an event, as the edge knows it: the client group (functions/middleware/client-ip.ts) and the page's identity. */
export interface EventSource {
  client: string;
  /** The page the event happened on (its page-cache key): only impressions are told apart by page. */
  page: string;
}

/**
 * The gates one event passes, in order, each a mark and how many events it lets through per day: for a card,
 * first once per page (client, page, tool, counter); then the daily bound of the client (client, tool, counter);
 * for an IPv6 client, last the bound of its /48 network, PREFIX_48_MULTIPLIER times as large (a tunnel's 65,536
 * /64s share it, as they share the rate limits).
 */
export function gatesOf(config: Config, day: string, source: EventSource, slug: string, counter: StatCounter): Gate[] {
  const bound = boundOf(counter);
  const gates: Gate[] = [];
  if (isImpression(counter))
    gates.push({
      mark: visitorMark(config, day, ['page', source.client, source.page, slug, counter]),
      cap: IMPRESSIONS_PER_PAGE,
    });
  gates.push({ mark: visitorMark(config, day, ['client', source.client, slug, counter]), cap: bound });
  const network = prefix48Of(source.client);
  if (network)
    gates.push({
      mark: visitorMark(config, day, ['network', network, slug, counter]),
      cap: bound * PREFIX_48_MULTIPLIER,
    });
  return gates;
}

/** The part of a source that tells events apart before they are marked (the page only matters to a card). */
export const sourceKey = (source: EventSource, counter: StatCounter): string =>
  isImpression(counter) ? `${source.client}\n${source.page}` : source.client;
