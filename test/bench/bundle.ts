// Worker bundle size: builds exactly like `npm run build` (wrangler dry run) and reports the gzipped size
// and the five biggest contributors, each gzipped on its own. Target: ≤ 400 KiB gzipped.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { type BenchReport, runStandalone } from './lib/results';
import { contributorOf, outputBySource } from './lib/source-map-sizes';

const root = resolve(import.meta.dirname, '../..');
const LIMIT_KIB = 400;
const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Builds the Worker into a temp dir and measures it. */
export async function benchBundle(): Promise<BenchReport> {
  const outDir = mkdtempSync(join(tmpdir(), 'tooldir-bundle-'));
  try {
    await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outDir], {
      cwd: root,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
      maxBuffer: 16 * 2 ** 20,
    });
    const code = readFileSync(join(outDir, 'worker.js'), 'utf8');
    const map = JSON.parse(readFileSync(join(outDir, 'worker.js.map'), 'utf8')) as { sources: string[]; mappings: string };
    const total = gzipSync(code).length;
    const byContributor = new Map<string, string>();
    for (const [source, text] of outputBySource(code, map)) {
      const key = contributorOf(relative(root, resolve(outDir, source)));
      byContributor.set(key, (byContributor.get(key) ?? '') + text);
    }
    const contributors = [...byContributor]
      .map(([name, text]) => ({ name, raw: Buffer.byteLength(text), gzip: gzipSync(text).length }))
      .sort((a, b) => b.gzip - a.gzip);
    const top = contributors.slice(0, 5);
    return {
      name: 'bundle',
      rows: [
        { contributor: 'TOTAL worker.js', 'raw KiB': kib(Buffer.byteLength(code)), 'gzip KiB': kib(total) },
        ...top.map((c) => ({ contributor: c.name, 'raw KiB': kib(c.raw), 'gzip KiB': kib(c.gzip) })),
      ],
      targets: [{ what: `gzipped ≤ ${LIMIT_KIB} KiB`, ok: total <= LIMIT_KIB * 1024, detail: `${kib(total)} KiB` }],
      notes: [
        'a contributor gzipped alone is a little larger than its share of the whole (no shared dictionary)',
        'the @upstash/* SDKs of the rate limiter load with import() on first use; see docs/bench.md for the Stripe SDK',
      ],
      data: { gzipBytes: total, rawBytes: Buffer.byteLength(code), contributors },
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, benchBundle);
