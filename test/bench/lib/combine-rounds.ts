// The rounds of one operation combined into one line of a throughput table (throughput.ts, public-throughput.ts).
import type { LoadResult } from './http-load';
import type { CpuSample } from './process-cpu';

export interface Measured extends LoadResult {
  /** µs of CPU per request in the server, PostgreSQL and the load generator (Linux only). */
  cpu?: CpuSample;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Rounds combined: req/s over all rounds, latency percentiles and CPU as the median of the rounds'. */
export function combineRounds(runs: Measured[]): Measured {
  const sum = (pick: (r: Measured) => number) => runs.reduce((s, r) => s + pick(r), 0);
  const merge = (pick: (r: Measured) => Record<string, number>) => {
    const out: Record<string, number> = {};
    for (const run of runs) for (const [k, n] of Object.entries(pick(run))) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  const cpus = runs.map((r) => r.cpu).filter((c): c is CpuSample => c !== undefined);
  const cpuMedian = (key: keyof CpuSample) => median(cpus.map((c) => c[key]));
  return {
    ...runs[0]!,
    cpu: cpus.length
      ? { server: cpuMedian('server'), postgres: cpuMedian('postgres'), loadGenerator: cpuMedian('loadGenerator') }
      : undefined,
    requests: sum((r) => r.requests),
    seconds: sum((r) => r.seconds),
    reqPerSec: sum((r) => r.requests) / sum((r) => r.seconds),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    mean: median(runs.map((r) => r.mean)),
    statuses: merge((r) => r.statuses),
    cache: merge((r) => r.cache),
    errors: sum((r) => r.errors),
    addressesUsed: sum((r) => r.addressesUsed),
  };
}
