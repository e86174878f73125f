// The layer rules of .dependency-cruiser.cjs (npm run lint:deps) can fail: a small tree shaped like ours, with one
// file per kind of forbidden import next to the imports the layers allow (the two named upward arrows included), is
// cruised with the real config by the real CLI. Every forbidden import is reported under its rule, nothing else is.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Allowed imports: each layer down, the composition root and entries, and the two named upward arrows. */
const allowed: Record<string, string> = {
  'src/config.ts': `export const port = 1;`,
  'src/errors.ts': `import { port } from './config'; export const code = port;`,
  'src/db/client.ts': `import { port } from '../config'; export const db = port;`,
  'src/db/schema/sites.ts': `import { kinds } from '../../crawler/crawl-result'; export const sites = kinds;`,
  'src/crawler/crawl-result.ts': `export const kinds = ['timeout'];`,
  'src/crawler/address-policy.ts': `export const policy = 1;`,
  'src/crawler/index.ts': `export { policy } from './address-policy';`,
  'src/accounts/key-cache.ts': `export class KeyCache {}`,
  'src/adapters/queue/types.ts': `export interface Queue { name: string }`,
  'src/adapters/queue/local.ts': `import type { Queue } from './types'; import { db } from '../../db/client'; export const local: Queue = { name: String(db) };`,
  'src/deps.ts': `import type { KeyCache } from './accounts/key-cache'; import type { Queue } from './adapters/queue/types'; export interface Deps { keys: KeyCache; queue: Queue }`,
  'src/build-deps.ts': `import { local } from './adapters/queue/local'; import { KeyCache } from './accounts/key-cache'; import type { Deps } from './deps'; export const buildDeps = (): Deps => ({ keys: new KeyCache(), queue: local });`,
  'src/submissions/url.ts': `import { code } from '../errors'; export const url = code;`,
  'src/pipeline/crawl-site.ts': `import type { Deps } from '../deps'; import { policy } from '../crawler'; import { url } from '../submissions/url'; export const crawl = (d: Deps) => [d, policy, url];`,
  'src/jobs/run-job.ts': `import { crawl } from '../pipeline/crawl-site'; export const runJob = crawl;`,
  'src/cli/main.ts': `import { port } from '../config'; import { url } from '../submissions/url'; export const main = [port, url];`,
  'functions/node.ts': `import { buildDeps } from '../src/build-deps'; import { local } from '../src/adapters/queue/local'; import { runJob } from '../src/jobs/run-job'; export const start = [buildDeps, local, runJob];`,
  'functions/v1/route.ts': `import type { Deps } from '../../src/deps'; import { url } from '../../src/submissions/url'; export const route = (d: Deps) => [d, url];`,
};

/** Forbidden imports, each with the rule that must name it. */
const forbidden: { file: string; source: string; expect: string[] }[] = [
  {
    file: 'src/submissions/a.ts',
    source: `import type { B } from './b'; export interface A { b?: B }`,
    expect: ['no-circular: src/submissions/a.ts -> src/submissions/b.ts'],
  },
  {
    // Type-only both ways, still a circle; reported once, at the first module of the cycle.
    file: 'src/submissions/b.ts',
    source: `import type { A } from './a'; export interface B { a?: A }`,
    expect: [],
  },
  {
    file: 'src/submissions/uses-http.ts',
    source: `import { route } from '../../functions/v1/route'; export const x = route;`,
    expect: ['src-never-imports-functions: src/submissions/uses-http.ts -> functions/v1/route.ts'],
  },
  {
    file: 'src/ids.ts',
    source: `import { url } from './submissions/url'; export const id = url;`,
    expect: ['leaf-modules-stay-leaves: src/ids.ts -> src/submissions/url.ts'],
  },
  {
    file: 'src/db/prepared.ts',
    source: `import { url } from '../submissions/url'; export const prepared = url;`,
    expect: ['db-imports-no-capability: src/db/prepared.ts -> src/submissions/url.ts'],
  },
  {
    // The upward arrow is allowed from sites.ts only.
    file: 'src/db/schema/accounts.ts',
    source: `import { kinds } from '../../crawler/crawl-result'; export const accounts = kinds;`,
    expect: ['db-imports-no-capability: src/db/schema/accounts.ts -> src/crawler/crawl-result.ts'],
  },
  {
    file: 'src/adapters/queue/qstash.ts',
    source: `import { url } from '../../submissions/url'; export const qstash = url;`,
    expect: ['adapters-import-no-service: src/adapters/queue/qstash.ts -> src/submissions/url.ts'],
  },
  {
    file: 'src/pipeline/wiring.ts',
    source:
      `import { buildDeps } from '../build-deps'; import { local } from '../adapters/queue/local'; ` +
      `import { runJob } from '../jobs/run-job'; export const wiring = [buildDeps, local, runJob];`,
    expect: [
      'only-entries-build-deps: src/pipeline/wiring.ts -> src/build-deps.ts',
      'adapter-implementations-are-chosen-by-the-root: src/pipeline/wiring.ts -> src/adapters/queue/local.ts',
      'jobs-schedule-capabilities-never-the-reverse: src/pipeline/wiring.ts -> src/jobs/run-job.ts',
    ],
  },
  {
    file: 'src/webhooks/target.ts',
    source: `import { policy } from '../crawler/address-policy'; export const target = policy;`,
    expect: ['crawler-through-its-public-modules: src/webhooks/target.ts -> src/crawler/address-policy.ts'],
  },
  {
    file: 'src/cli/submit.ts',
    source: `import type { Deps } from '../deps'; import { crawl } from '../pipeline/crawl-site'; export const submit = (d: Deps) => crawl(d);`,
    expect: ['cli-is-a-client: src/cli/submit.ts -> src/deps.ts', 'cli-is-a-client: src/cli/submit.ts -> src/pipeline/crawl-site.ts'],
  },
];

/** src/deps.ts gone wrong (cruised as a second tree): a value import, and a capability beyond the key cache. */
const wrongDeps = {
  'src/accounts/actor.ts': `export interface Actor { id: string }`,
  'src/deps.ts':
    `import { KeyCache } from './accounts/key-cache'; import type { Actor } from './accounts/actor'; ` +
    `export interface Deps { keys: KeyCache; actor: Actor }`,
};

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

const dirs: string[] = [];

/** Writes `files` into a new directory and runs the real CLI there with the real config; the violations, sorted. */
async function cruiseTree(files: Record<string, string>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-layers-'));
  dirs.push(dir);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${source}\n`);
  }
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
  const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [cli, 'src', 'functions', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  // Violations exit non-zero; the JSON report is on stdout either way.
  const stdout = await promisify(execFile)(process.execPath, args, { cwd: dir, maxBuffer: 16 * 1024 * 1024 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string; stderr?: string }) => {
      if (!failed.stdout) throw new Error(`depcruise failed: ${failed.stderr}`);
      return failed.stdout;
    },
  );
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();
}

let violations: string[];
let depsViolations: string[];

beforeAll(async () => {
  [violations, depsViolations] = await Promise.all([
    cruiseTree({ ...allowed, ...Object.fromEntries(forbidden.map((f) => [f.file, f.source])) }),
    cruiseTree({ ...allowed, ...wrongDeps }),
  ]);
}, 60_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run lint:deps (.dependency-cruiser.cjs)', () => {
  it('reports each forbidden import under its rule, and nothing the layers allow', () => {
    expect(violations).toEqual(forbidden.flatMap((f) => f.expect).sort());
  });

  it('allows exactly the two named upward arrows, and only from their own file', () => {
    expect(violations.filter((v) => v.includes('src/db/schema/sites.ts') || v.startsWith('deps-'))).toEqual([]);
    expect(violations).toContain('db-imports-no-capability: src/db/schema/accounts.ts -> src/crawler/crawl-result.ts');
  });

  it('keeps src/deps.ts to types, naming no capability but the key cache', () => {
    expect(depsViolations).toEqual([
      'deps-imports-only-types: src/deps.ts -> src/accounts/key-cache.ts',
      'deps-names-only-the-floor: src/deps.ts -> src/accounts/actor.ts',
    ]);
  });
});
