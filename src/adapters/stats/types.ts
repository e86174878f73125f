/** One counter of one tool on one day, as an engine stores it: plain numbers, nothing about who caused them. */
export interface CountRow {
  slug: string;
  counter: string;
  n: number;
}

/**
 * A visitor mark (src/stats/visitor-marks.ts: a keyed hash, 24 hex characters) and how many events it lets
 * through in a day. The engine keeps, per day, how many events reached each mark; nothing else of the visitor.
 */
export interface Gate {
  mark: string;
  cap: number;
}

/**
 * `n` events of one tool and counter and the gates they pass, in order (at most three; src/stats/per-client-bounds.ts).
 * At each gate, of the m events that reach it, min(m, cap − events that reached it before today) go on; the mark
 * remembers all m. What passes the last gate is added to the counter. Rows whose first gates are the same mark
 * have the same later gates.
 */
export interface GatedCount extends CountRow {
  gates: readonly Gate[];
}

/** The most gates a row may have (the engines' statements are written for this many). */
export const MAX_GATES = 3;

/**
 * Where counted events go and where the roll-up reads them back (docs/stats.md "Engines"): Upstash Redis
 * counters in production, a table of the embedded database locally. Both hold plain counts per UTC day, tool
 * slug and counter name, and the day's visitor marks; what the names mean is src/stats/counters.ts's business.
 */
export interface StatsStore {
  readonly kind: 'redis' | 'database';
  /**
   * Passes each row through its gates and adds what passes to `day`'s counter, atomically (concurrent writers
   * cannot both take a gate's last place), in one round trip. Marks of days before `day` are forgotten.
   */
  record(day: string, rows: readonly GatedCount[]): Promise<void>;
  /** Every counter of `day` (empty when the engine holds nothing for it, e.g. after its retention). */
  readDay(day: string): Promise<CountRow[]>;
  /** Forgets the visitor marks of every day before `day` (Redis lets them expire at the end of their day). */
  forgetMarksBefore(day: string): Promise<void>;
}
