import type { Deps } from '../deps';
import type { GatedCount, StatsStore } from '../adapters/stats/types';
import type { StatCounter, StatEvent } from './counters';
import { type EventSource, gatesOf, sourceKey } from './per-client-bounds';
import { utcDay } from '../utc-day';

/**
 * How long counted events wait in the process (the isolate, on Workers) before one write takes all of them:
 * under load a write per request would cost the pages CPU and the engine calls; batched, a busy process writes
 * a few times a second whatever its traffic. The wait runs inside the first request's waitUntil.
 */
export const FLUSH_DELAY_MS = 250;
/** A batch this large (distinct day, client, tool and counter rows) is written at once. */
const MAX_BATCH_ROWS = 1000;

/** Events of one day, source, tool and counter, waiting in memory (at most FLUSH_DELAY_MS) to be marked and written. */
interface PendingRow {
  day: string;
  source: EventSource;
  slug: string;
  counter: StatCounter;
  n: number;
}

interface Batch {
  rows: Map<string, PendingRow>;
  /** Resolves when the pending write is done; undefined while no write is scheduled. */
  flushing?: Promise<void>;
  wake?: () => void;
}

/** One batch per store, i.e. per process or isolate (deps are built once there; requests share the store). */
const batches = new WeakMap<StatsStore, Batch>();

/**
 * Counts events after the response (a core verb; docs/stats.md "No cost to the page"): they join the process's
 * current batch, and the first request of a batch hands its write to `deps.defer` (waitUntil on Workers, the
 * Node entry's tracked set), so no page waits for it, and a failing engine is a log line, never an error of
 * the page. Each event counts only while its source is within its bounds (docs/stats.md "A few per client and
 * day"): the client is held in memory until the batch is written, then only as visitor marks. STATS_COUNTING=false
 * turns it off.
 */
export function countEvents(deps: Deps, events: readonly StatEvent[], source: EventSource): void {
  if (!deps.config.stats.counting || events.length === 0) return;
  const day = utcDay(deps.now());
  let batch = batches.get(deps.stats);
  if (!batch) batches.set(deps.stats, (batch = { rows: new Map() }));
  for (const { slug, counter } of events) {
    const key = `${day}\n${sourceKey(source, counter)}\n${slug}\n${counter}`;
    const row = batch.rows.get(key);
    if (row) row.n += 1;
    else batch.rows.set(key, { day, source, slug, counter, n: 1 });
  }
  if (!batch.flushing) deps.defer((batch.flushing = flushLater(deps, batch)));
  else if (batch.rows.size >= MAX_BATCH_ROWS) batch.wake?.();
}

async function flushLater(deps: Deps, batch: Batch): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, FLUSH_DELAY_MS);
    batch.wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const rows = [...batch.rows.values()];
  batch.rows = new Map();
  batch.flushing = undefined;
  batch.wake = undefined;
  // Marked here, off the response path, once per distinct row of the batch (a reload adds to n, not to the hashing).
  const byDay = new Map<string, GatedCount[]>();
  for (const { day, source, slug, counter, n } of rows) {
    let dayRows = byDay.get(day);
    if (!dayRows) byDay.set(day, (dayRows = []));
    dayRows.push({ slug, counter, n, gates: gatesOf(deps.config, day, source, slug, counter) });
  }
  for (const [day, dayRows] of byDay) {
    try {
      // Inside the try: even a synchronous throw of an engine is a logged failure.
      await deps.stats.record(day, dayRows);
    } catch (error) {
      const events = dayRows.reduce((sum, r) => sum + r.n, 0);
      deps.log.warn('statistics not counted', { engine: deps.stats.kind, events, err: String(error) });
    }
  }
}
