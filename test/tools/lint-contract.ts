// The contract's lint runs (.ci/run): openapi.json as the service serves it, linted by Redocly (recommended rules)
// and Spectral (spectral:oas), and turned into TypeScript by openapi-typescript. Any error, warning or hint fails the
// run, and so does a generated submit body that requires `plan`. The linters are devDependencies (package.json).
//   npx tsx test/tools/lint-contract.ts
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateContractTypes, openApiDocument } from './openapi-document';

const root = resolve(import.meta.dirname, '../..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const dir = mkdtempSync(join(tmpdir(), 'tooldir-contract-'));
const failures: string[] = [];
/** Nothing but the linting: Redocly's usage telemetry and update check off, and any other tracker told so. */
const OFFLINE = { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', DO_NOT_TRACK: '1' };

function run(
  label: string,
  command: string,
  args: string[],
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 32 * 2 ** 20,
    env: { ...process.env, ...OFFLINE },
  });
  if (result.error) throw new Error(`${label}: ${result.error.message}`);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

try {
  const document = join(dir, 'openapi.json');
  writeFileSync(document, JSON.stringify(await openApiDocument(), null, 2));

  // Redocly exits non-zero only on errors; its JSON report counts the warnings too.
  const redocly = run('redocly', bin('redocly'), ['lint', document, '--extends', 'recommended', '--format', 'json']);
  const report = JSON.parse(redocly.stdout) as {
    totals: { errors: number; warnings: number };
    problems: Array<{ ruleId: string; message: string; location: Array<{ pointer: string }> }>;
  };
  for (const p of report.problems)
    failures.push(`redocly ${p.ruleId}: ${p.message} (${p.location.map((l) => l.pointer).join(', ')})`);
  if (redocly.status !== 0 && report.problems.length === 0)
    failures.push(`redocly exited ${redocly.status}: ${redocly.stderr}`);
  console.log(`redocly (recommended): ${report.totals.errors} errors, ${report.totals.warnings} warnings`);

  // Spectral: every severity down to hint fails the run.
  const ruleset = join(dir, '.spectral.yaml');
  writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  const results = join(dir, 'spectral.json');
  const spectral = run('spectral', bin('spectral'), [
    'lint',
    document,
    '--ruleset',
    ruleset,
    '--fail-severity',
    'hint',
    '--format',
    'json',
    '--output',
    results,
  ]);
  const found = JSON.parse(readFileSync(results, 'utf8')) as Array<{ code: string; message: string; path: string[] }>;
  for (const r of found) failures.push(`spectral ${r.code}: ${r.message} (${r.path.join('.')})`);
  if (spectral.status !== 0 && found.length === 0)
    failures.push(`spectral exited ${spectral.status}: ${spectral.stderr}`);
  console.log(`spectral (spectral:oas): ${found.length} results`);

  // Generated clients: the submit body's plan is optional (the server defaults it).
  const types = await generateContractTypes();
  const submitBody = /SubmitRequest: \{([\s\S]*?)\n {8}\};/.exec(types)?.[1] ?? '';
  if (!/\bplan\?: "basic" \| "featured" \| "sponsored" \| "pro";/.test(submitBody))
    failures.push('openapi-typescript: SubmitRequest.plan is not optional');
  console.log('openapi-typescript: SubmitRequest generated');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length) {
  console.error(`The contract does not lint clean (${failures.length}):\n${failures.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
console.log('The contract lints clean.');
