// Shared output of the benchmarks: a printed table and a JSON file under bench-results/ (gitignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import { arch, cpus, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

export const resultsDir = resolve(import.meta.dirname, '../../../bench-results');

/** One benchmark's outcome: rows for the table, pass/fail against its targets, and notes. */
export interface BenchReport {
  name: string;
  rows: Record<string, string | number>[];
  /** Target checks; a failed target is reported, never hidden. */
  targets: { what: string; ok: boolean; detail: string }[];
  notes: string[];
  data?: unknown;
}

/** The machine the numbers were taken on, so a table can be compared with another run. */
export function machine() {
  const cpu = cpus();
  return {
    node: process.version,
    arch: arch(),
    cpu: `${cpu.length} × ${cpu[0]?.model ?? 'unknown'}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
  };
}

/** Writes bench-results/<name>.json and returns its path. */
export function writeReport(report: BenchReport): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, `${report.name}.json`);
  writeFileSync(path, `${JSON.stringify({ ...report, machine: machine(), at: new Date().toISOString() }, null, 2)}\n`);
  return path;
}

/** Renders rows as a Markdown table (the README carries it as is). */
export function formatTable(rows: Record<string, string | number>[]): string {
  if (rows.length === 0) return '(no rows)';
  const headers = Object.keys(rows[0] ?? {});
  const cells = rows.map((row) => headers.map((h) => String(row[h] ?? '')));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** Prints a report: title, table, targets, notes. */
export function printReport(report: BenchReport, path?: string) {
  console.log(`\n## ${report.name}\n\n${formatTable(report.rows)}\n`);
  for (const t of report.targets) console.log(`${t.ok ? 'PASS' : 'FAIL'}  ${t.what}: ${t.detail}`);
  for (const n of report.notes) console.log(`note: ${n}`);
  if (path) console.log(`json: ${path}`);
}

/** Runs a bench when its file is executed directly (`tsx test/bench/x.ts`). */
export async function runStandalone(url: string, bench: () => Promise<BenchReport>) {
  if (process.argv[1] && resolve(process.argv[1]) === new URL(url).pathname) {
    const report = await bench();
    printReport(report, writeReport(report));
    process.exit(report.targets.every((t) => t.ok) ? 0 : 1);
  }
}
