// `npm run bench [names...]`: runs the benchmarks one after another, prints each table, writes
// bench-results/<name>.json and a summary. Never part of `npm test`. Exit code 1 when a target failed.
// zod-openapi first: it adds .openapi() to zod's schemas, and the benches load src/ modules (the search seed) that
// build schemas the app's routes extend later in this same process.
import '@hono/zod-openapi';
import { benchBundle } from './bundle';
import { benchColdStart } from './cold-start';
import { benchRoundTrips } from './round-trips';
import { benchSearch } from './search.bench';
import { benchThroughput } from './throughput';
import { benchPublicThroughput } from './public-throughput';
import { benchStatsCounting } from './stats-counting';
import { benchStatsMarks } from './stats-marks';
import { type BenchReport, formatTable, machine, printReport, writeReport } from './lib/results';

const benches: Record<string, () => Promise<BenchReport>> = {
  throughput: benchThroughput,
  public: benchPublicThroughput,
  'round-trips': benchRoundTrips,
  'cold-start': benchColdStart,
  bundle: benchBundle,
  stats: benchStatsCounting,
  'stats-marks': benchStatsMarks,
  search: benchSearch,
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in benches));
if (unknown.length) {
  console.error(
    `unknown bench: ${unknown.join(', ')} (known: ${Object.keys(benches).join(', ')}; the soak runs with npx tsx test/bench/soak.ts)`,
  );
  process.exit(2);
}

console.log(`machine: ${JSON.stringify(machine())}`);
const summary: Record<string, string | number>[] = [];
for (const [name, bench] of Object.entries(benches)) {
  if (wanted.length && !wanted.includes(name)) continue;
  try {
    const report = await bench();
    printReport(report, writeReport(report));
    const failed = report.targets.filter((t) => !t.ok);
    summary.push({
      bench: name,
      targets: `${report.targets.length - failed.length}/${report.targets.length} met`,
      failed: failed.map((t) => t.what).join('; '),
    });
  } catch (error) {
    console.error(`${name} failed to run:`, error);
    summary.push({ bench: name, targets: 'did not run', failed: String(error).slice(0, 120) });
  }
}
console.log(`\n## summary\n\n${formatTable(summary)}`);
process.exit(summary.every((row) => row.failed === '') ? 0 : 1);
