import type { Deps } from '../deps';
import { tally, type StatEvent } from './counters';
import { utcDay } from './utc-day';

/**
 * Counts events after the response (a core verb; docs/stats.md "No cost to the page"): the write goes through
 * `deps.defer` (waitUntil on Workers, the Node entry's tracked set), so the page never waits for it, and a
 * failing engine is a log line, never an error of the page. STATS_COUNTING=false turns it off.
 */
export function countEvents(deps: Deps, events: readonly StatEvent[]): void {
  if (!deps.config.stats.counting || events.length === 0) return;
  const day = utcDay(deps.now());
  // Started inside a promise so that even a synchronous throw of an engine becomes the deferred failure.
  const work = Promise.resolve().then(() => deps.stats.record(day, tally(events)));
  deps.defer(work.catch((error: unknown) => {
    deps.log.warn('statistics not counted', { engine: deps.stats.kind, events: events.length, err: String(error) });
  }));
}
