/** One counter of one tool on one day, as an engine stores it: plain numbers, nothing about who caused them. */
export interface CountRow {
  slug: string;
  counter: string;
  n: number;
}

/**
 * Where counted events go and where the roll-up reads them back (docs/stats.md "Engines"): Upstash Redis
 * counters in production, a table of the embedded database locally. Both hold plain counts per UTC day, tool
 * slug and counter name; what the names mean is src/stats/counters.ts's business.
 */
export interface StatsStore {
  readonly kind: 'redis' | 'database';
  /** Adds each row's `n` to `day`'s counter in one round trip. */
  record(day: string, rows: readonly CountRow[]): Promise<void>;
  /** Every counter of `day` (empty when the engine holds nothing for it, e.g. after its retention). */
  readDay(day: string): Promise<CountRow[]>;
}
