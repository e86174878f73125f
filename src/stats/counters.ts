import type { CountRow } from '../adapters/stats/types';

// What listing statistics count (docs/stats.md): the counters of one tool on one UTC day. The engines store
// plain (slug, counter, n) rows; the roll-up and the readers give them these names.

/** Every counter an event can move; impressions are kept by placement, the other counters are one each. */
export const STAT_COUNTERS = [
  'views',
  'clicks',
  'impressions_sponsored',
  'impressions_featured',
  'impressions_standard',
  'badge_loads',
] as const;
export type StatCounter = (typeof STAT_COUNTERS)[number];

const COUNTERS: ReadonlySet<string> = new Set(STAT_COUNTERS);
export const isStatCounter = (value: string): value is StatCounter => COUNTERS.has(value);

// How a card was shown (in the sponsored slot or with the Sponsored badge, with the Featured badge, or plainly)
// and the placement of a card from the flags it is drawn with (functions/pages/tool-list.ts `badges`): the plan table's.
export { isPlacement, placementOf, placements, type Placement } from '../catalog/plans';
import type { Placement } from '../catalog/plans';

export const impressionCounter = (placement: Placement): StatCounter => `impressions_${placement}`;

/** One counted thing: a tool (by its public slug, what every counted URL carries) and the counter it moves. */
export interface StatEvent {
  slug: string;
  counter: StatCounter;
}

/** A day's counts as an engine holds them: by slug, then by counter. */
export type DayCounts = Map<string, Partial<Record<StatCounter, number>>>;

/** Adds events up per slug and counter: the rows an engine writes in one round trip. */
export function tally(events: readonly StatEvent[]): CountRow[] {
  const rows = new Map<string, CountRow>();
  for (const { slug, counter } of events) {
    const key = `${slug} ${counter}`;
    const row = rows.get(key);
    if (row) row.n += 1;
    else rows.set(key, { slug, counter, n: 1 });
  }
  return [...rows.values()];
}

/** An engine's rows as DayCounts; a counter name this version does not know, or a count that is no count, is skipped. */
export function toDayCounts(rows: Iterable<CountRow>): DayCounts {
  const counts: DayCounts = new Map();
  for (const { slug, counter, n } of rows) {
    if (!isStatCounter(counter) || !Number.isSafeInteger(n) || n <= 0 || slug === '') continue;
    const row = counts.get(slug) ?? {};
    row[counter] = (row[counter] ?? 0) + n;
    counts.set(slug, row);
  }
  return counts;
}
