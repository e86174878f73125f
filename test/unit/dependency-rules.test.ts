// The layer rules of .dependency-cruiser.cjs (npm run lint:deps) can fail: a small tree shaped like ours, with one
// file per kind of forbidden import next to the imports the layers allow, is cruised with the real config by the
// real CLI. Every forbidden import is reported under its rule, nothing else is. Then the repository itself is drawn by
// the config's rows: no arrow runs up.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Allowed imports: each layer down, the composition root and the entries. */
const allowed: Record<string, string> = {
  'src/catalog/plans.ts': `export const plans = ['basic'];`,
  'src/catalog/crawl-failure-kinds.ts': `export const kinds = ['timeout'];`,
  'src/config.ts': `import { plans } from './catalog/plans'; export const port = plans.length;`,
  'src/errors.ts': `import { port } from './config'; export const code = port;`,
  'src/db/client.ts': `import { port } from '../config'; export const db = port;`,
  'src/db/schema/sites.ts': `import { kinds } from '../../catalog/crawl-failure-kinds'; export const sites = kinds;`,
  'src/crawler/crawl-result.ts': `import type { kinds } from '../catalog/crawl-failure-kinds'; export type Kind = (typeof kinds)[number];`,
  'src/crawler/address-policy.ts': `import { plans } from '../catalog/plans'; export const policy = plans;`,
  'src/crawler/index.ts': `export { policy } from './address-policy';`,
  'src/rate-limits/client-group.ts': `export const clientGroup = (ip: string) => ip;`,
  'src/key-cache.ts': `import { port } from './config'; export class KeyCache { ttl = port; }`,
  'src/adapters/queue/types.ts': `export interface Queue { name: string }`,
  'src/adapters/queue/local.ts': `import type { Queue } from './types'; import { db } from '../../db/client'; export const local: Queue = { name: String(db) };`,
  'src/deps.ts': `import type { KeyCache } from './key-cache'; import type { Queue } from './adapters/queue/types'; export interface Deps { keys: KeyCache; queue: Queue }`,
  'src/build-deps.ts': `import { local } from './adapters/queue/local'; import { KeyCache } from './key-cache'; import type { Deps } from './deps'; export const buildDeps = (): Deps => ({ keys: new KeyCache(), queue: local });`,
  'src/directory/badge.ts': `import { plans } from '../catalog/plans'; export const badge = plans;`,
  'src/submissions/url.ts': `import { code } from '../errors'; import { badge } from '../directory/badge'; import { clientGroup } from '../rate-limits/client-group'; export const url = [code, badge, clientGroup];`,
  'src/pipeline/crawl-site.ts': `import type { Deps } from '../deps'; import { policy } from '../crawler'; import { url } from '../submissions/url'; export const crawl = (d: Deps) => [d, policy, url];`,
  'src/jobs/run-job.ts': `import { crawl } from '../pipeline/crawl-site'; export const runJob = crawl;`,
  'src/cli/main.ts': `import { port } from '../config'; import { plans } from '../catalog/plans'; import { url } from '../submissions/url'; export const main = [port, plans, url];`,
  'src/cli/run.ts': `import { main } from './main'; export const run = main;`,
  'functions/node.ts': `import { buildDeps } from '../src/build-deps'; import { local } from '../src/adapters/queue/local'; import { db } from '../src/db/client'; import { runJob } from '../src/jobs/run-job'; export const start = [buildDeps, local, db, runJob];`,
  'functions/v1/route.ts': `import type { Deps } from '../../src/deps'; import { plans } from '../../src/catalog/plans'; import { url } from '../../src/submissions/url'; export const route = (d: Deps) => [d, plans, url];`,
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
    file: 'src/catalog/tiers.ts',
    source: `import { port } from '../config'; export const tiers = [port];`,
    expect: ['catalog-imports-nothing: src/catalog/tiers.ts -> src/config.ts'],
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
    // A closed list read from a capability is an upward arrow: the schema reads the catalogue instead.
    file: 'src/db/schema/accounts.ts',
    source: `import type { Kind } from '../../crawler/crawl-result'; export type Accounts = Kind;`,
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
      'capabilities-import-only-lower-layers: src/pipeline/wiring.ts -> src/jobs/run-job.ts',
    ],
  },
  {
    file: 'src/crawler/submitted.ts',
    source: `import { url } from '../submissions/url'; export const submitted = url;`,
    expect: ['crawler-imports-no-capability: src/crawler/submitted.ts -> src/submissions/url.ts'],
  },
  {
    // Up the order: accounts sits below submissions.
    file: 'src/accounts/overview.ts',
    source: `import { url } from '../submissions/url'; export const overview = url;`,
    expect: ['capabilities-import-only-lower-layers: src/accounts/overview.ts -> src/submissions/url.ts'],
  },
  {
    // Sideways: directory and stats share a layer, so neither imports the other.
    file: 'src/stats/placement.ts',
    source: `import { badge } from '../directory/badge'; export const placement = badge;`,
    expect: ['capabilities-import-only-lower-layers: src/stats/placement.ts -> src/directory/badge.ts'],
  },
  {
    file: 'src/webhooks/target.ts',
    source: `import { policy } from '../crawler/address-policy'; export const target = policy;`,
    expect: ['crawler-through-its-public-modules: src/webhooks/target.ts -> src/crawler/address-policy.ts'],
  },
  {
    file: 'src/cli/submit.ts',
    source: `import type { Deps } from '../deps'; import { crawl } from '../pipeline/crawl-site'; export const submit = (d: Deps) => crawl(d);`,
    expect: [
      'cli-is-a-client: src/cli/submit.ts -> src/deps.ts',
      'cli-is-a-client: src/cli/submit.ts -> src/pipeline/crawl-site.ts',
    ],
  },
  {
    file: 'src/submissions/cli-words.ts',
    source: `import { main } from '../cli/main'; export const words = main;`,
    expect: ['only-the-cli-imports-the-cli: src/submissions/cli-words.ts -> src/cli/main.ts'],
  },
  {
    file: 'functions/v1/cli-route.ts',
    source: `import { run } from '../../src/cli/run'; export const route = run;`,
    expect: ['only-the-cli-imports-the-cli: functions/v1/cli-route.ts -> src/cli/run.ts'],
  },
  {
    file: 'functions/admin/edit-review.ts',
    source: `import { sites } from '../../src/db/schema/sites'; export const review = sites;`,
    expect: ['routes-never-import-the-database: functions/admin/edit-review.ts -> src/db/schema/sites.ts'],
  },
];

/** src/deps.ts gone wrong (cruised as a second tree): a value import, and a capability. */
const wrongDeps = {
  'src/accounts/actor.ts': `export interface Actor { id: string }`,
  'src/deps.ts':
    `import { KeyCache } from './key-cache'; import type { Actor } from './accounts/actor'; ` +
    `export interface Deps { keys: KeyCache; actor: Actor }`,
};

interface Violation {
  rule: { name: string; severity: string };
  from: string;
  to: string;
}

interface Report {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: Violation[] };
}

/** What the config gives the test besides its rules (not enumerable: dependency-cruiser admits no other key). */
const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs')) as {
  picture: { row: string; paths: string[] }[];
};

const dirs: string[] = [];

/** Runs the real CLI with the real config in `dir`; its JSON report. */
async function cruise(dir: string): Promise<Report> {
  const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [cli, 'src', 'functions', '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'];
  // Violations exit non-zero; the JSON report is on stdout either way.
  const stdout = await promisify(execFile)(process.execPath, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).then(
    (done) => done.stdout,
    (failed: { stdout?: string; stderr?: string }) => {
      if (!failed.stdout) throw new Error(`depcruise failed: ${failed.stderr}`);
      return failed.stdout;
    },
  );
  return JSON.parse(stdout) as Report;
}

/** Writes `files` into a new directory and cruises it. */
async function cruiseTree(files: Record<string, string>): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-layers-'));
  dirs.push(dir);
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), `${source}\n`);
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }),
  );
  return cruise(dir);
}

/** The report's violations of one severity, as `rule: from -> to`, sorted. */
const listed = (report: Report, severity: 'error' | 'info') =>
  report.summary.violations
    .filter((v) => v.rule.severity === severity)
    .map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)
    .sort();

/** The picture's rows a module sits in (exactly one, when the picture covers the tree). */
const rowsOf = (module: string) =>
  config.picture.flatMap((row, index) => (row.paths.some((path) => new RegExp(path).test(module)) ? [index] : []));

/** Draws the report by the config's rows, top first: the arrows that run from a lower row to a higher one. */
function upwardArrows(report: Report): string[] {
  const row = (module: string) => rowsOf(module)[0] ?? -1;
  return report.modules
    .flatMap((m) =>
      m.dependencies.filter((d) => row(d.resolved) < row(m.source)).map((d) => `${m.source} -> ${d.resolved}`),
    )
    .sort();
}

let violations: string[];
let info: string[];
let depsViolations: string[];
let syntheticUpward: string[];
let repository: Report;

beforeAll(async () => {
  const [tree, wrong, real] = await Promise.all([
    cruiseTree({ ...allowed, ...Object.fromEntries(forbidden.map((f) => [f.file, f.source])) }),
    cruiseTree({ ...allowed, ...wrongDeps }),
    cruise(root),
  ]);
  violations = listed(tree, 'error');
  info = [...listed(tree, 'info'), ...listed(real, 'info')];
  depsViolations = listed(wrong, 'error');
  syntheticUpward = upwardArrows(tree);
  repository = real;
}, 180_000);

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run lint:deps (.dependency-cruiser.cjs)', () => {
  it('reports each forbidden import under its rule, and nothing the layers allow', () => {
    expect(violations).toEqual(forbidden.flatMap((f) => f.expect).sort());
  });

  it('names no upward arrow: nothing is reported as information, here or in the repository', () => {
    expect(info).toEqual([]);
  });

  it('keeps src/deps.ts to types, naming no capability', () => {
    expect(depsViolations).toEqual([
      'deps-imports-only-types: src/deps.ts -> src/key-cache.ts',
      'deps-names-only-the-floor: src/deps.ts -> src/accounts/actor.ts',
    ]);
  });
});

describe('the import picture (the rows of the config, top first)', () => {
  it('counts an upward arrow for every forbidden import that runs up a row', () => {
    expect(syntheticUpward).toEqual(
      [
        'src/accounts/overview.ts -> src/submissions/url.ts',
        'src/catalog/tiers.ts -> src/config.ts',
        'src/crawler/submitted.ts -> src/submissions/url.ts',
        'src/db/prepared.ts -> src/submissions/url.ts',
        'src/db/schema/accounts.ts -> src/crawler/crawl-result.ts',
        'src/ids.ts -> src/submissions/url.ts',
        'src/adapters/queue/qstash.ts -> src/submissions/url.ts',
        'src/pipeline/wiring.ts -> src/build-deps.ts',
        'src/pipeline/wiring.ts -> src/jobs/run-job.ts',
        'src/submissions/cli-words.ts -> src/cli/main.ts',
        'src/submissions/uses-http.ts -> functions/v1/route.ts',
      ].sort(),
    );
  });

  it('places every module of the repository in exactly one row', () => {
    expect(repository.modules.length).toBeGreaterThan(300);
    expect(repository.modules.filter((m) => rowsOf(m.source).length !== 1).map((m) => m.source)).toEqual([]);
  });

  it('shows no arrow running up, and dependency-cruiser reports nothing', () => {
    expect(upwardArrows(repository)).toEqual([]);
    expect(repository.summary.violations).toEqual([]);
  });
});
