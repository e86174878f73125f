// The table and targets of the bulk-writes bench (test/bench/bulk-writes.ts): per statement and size, wall time
// (best, median, slowest of the rounds) and database CPU time, and the growth against the size a quarter as big.
import type { BenchReport } from './results';

export const MAX_GROWTH = 6;

export interface Measurement {
  size: number;
  statement: string;
  wallMs: number[];
  /** CPU time of the database backend that ran it (plus ours where the work is partly ours); undefined without /proc. */
  cpuMs: (number | undefined)[];
  rows: number;
  failed?: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

/**
 * The time a statement costs, as the best of its rounds (on a shared machine other work only ever adds time): CPU
 * when it could be read, since on two cores shared with other sessions wall time is mostly the queue for a core.
 */
function cost(m: Measurement): { ms: number; of: 'CPU' | 'wall' } {
  const cpu = m.cpuMs.filter((c): c is number => c !== undefined);
  return cpu.length === m.cpuMs.length && cpu.length > 0
    ? { ms: Math.min(...cpu), of: 'CPU' }
    : { ms: Math.min(...m.wallMs), of: 'wall' };
}

export function growthReport(all: Measurement[], sizes: number[], notes: string[]): BenchReport {
  const find = (size: number, statement: string) =>
    all.find((m) => m.size === size && m.statement === statement && !m.failed && m.wallMs.length);
  const rows = all.map((m) => {
    const quarter = find(m.size / 4, m.statement);
    const cpu = m.cpuMs.filter((c): c is number => c !== undefined);
    return {
      tools: m.size,
      statement: m.statement,
      'rows written': m.rows,
      'best s': m.wallMs.length ? seconds(Math.min(...m.wallMs)) : (m.failed ?? ''),
      'median s': m.wallMs.length ? seconds(median(m.wallMs)) : '',
      'slowest s': m.wallMs.length ? seconds(Math.max(...m.wallMs)) : '',
      'CPU s (best)': cpu.length ? seconds(Math.min(...cpu)) : '',
      '× ¼ size, CPU':
        quarter && m.wallMs.length && cost(m).of === 'CPU' ? (cost(m).ms / cost(quarter).ms).toFixed(2) : '',
      '× ¼ size, wall':
        quarter && m.wallMs.length ? (Math.min(...m.wallMs) / Math.min(...quarter.wallMs)).toFixed(2) : '',
    };
  });
  const targets: BenchReport['targets'] = [];
  for (const m of all) {
    if (m.failed) {
      targets.push({ what: `${m.statement}: finishes at ${m.size} tools`, ok: false, detail: m.failed });
      continue;
    }
    if (!sizes.includes(m.size / 4)) continue;
    const quarter = find(m.size / 4, m.statement);
    const ratio = quarter ? cost(m).ms / cost(quarter).ms : Infinity;
    targets.push({
      what: `${m.statement}: ${m.size} tools ≤ ${MAX_GROWTH}× ${m.size / 4}`,
      ok: ratio <= MAX_GROWTH,
      detail: quarter
        ? `${ratio.toFixed(2)}× in ${cost(m).of} time (${seconds(cost(m).ms)} s against ${seconds(cost(quarter).ms)} s)`
        : 'the smaller size did not finish',
    });
  }
  const largest = Math.max(...sizes);
  if (largest < 1_000_000) {
    for (const m of all.filter((x) => x.size === largest && !x.failed && x.wallMs.length)) {
      const perMillion = (ms: number) => `${(((ms / largest) * 1e6) / 60_000).toFixed(1)} min`;
      notes.push(
        `extrapolated linearly to 1,000,000 tools: ${m.statement} ≈ ${perMillion(median(m.wallMs))} (median wall), ${perMillion(cost(m).ms)} (${cost(m).of})`,
      );
    }
  }
  notes.push(
    `targets compare the best round's ${all.some((m) => cost(m).of === 'CPU') ? 'CPU time (the database backend, plus the bench process for the key backfill)' : 'wall time'}; the wall ratios are shown beside them`,
  );
  notes.push(
    'each timed statement ran after VACUUM (ANALYZE) and CHECKPOINT (untimed) and its time includes merging the GIN pending lists it filled; PostgreSQL 15, shared_buffers 256 MB, fsync off, jit on',
  );
  return { name: 'bulk-writes', rows, targets, notes, data: all };
}
