// MCP Inspector's strict schema check against our MCP server, as an agent host would connect (issue 33 point 5;
// docs/mcp-inspector.md). Starts the local server (npm start's bundle) on loopback, makes an account and an API key
// through the operator API, runs the Inspector's CLI with --strict on tools/list, and exits 1 unless it reports
// 0 errors and 0 warnings over every tool. Run by .ci/run; by hand: `npx tsx test/tools/mcp-inspector-strict.ts`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer } from '../helpers/child-server';

/** The Inspector release this check pins (its CLI runs on Node 20.19 although it declares Node ≥ 22.19). */
export const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';

function run(command: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function postJson(url: string, token: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

const dataDir = mkdtempSync(join(tmpdir(), 'tooldir-inspector-'));
const server = await startChildServer({ dataDir });
let failed = true;
try {
  const admin = server.adminToken();
  const account = await postJson(`${server.url}/api/v1/admin/accounts`, admin, {
    email: 'inspector@example.com',
    tier: 'member',
  });
  const { key } = await postJson(`${server.url}/api/v1/admin/accounts/${account.account_id}/keys`, admin);
  const inspector = await run('npm', [
    'exec',
    '--yes',
    '--loglevel=error',
    `--package=${INSPECTOR}`,
    '--',
    'mcp-inspector',
    '--cli',
    `${server.url}/mcp`,
    '--transport',
    'http',
    '--method',
    'tools/list',
    '--strict',
    '--format',
    'json',
    '--header',
    `Authorization: Bearer ${key}`,
  ]);
  // --format json: one envelope, `schemaFindings` present only when the lint found something (per tool, each
  // finding with its severity); the human report goes to stderr.
  const envelope = JSON.parse(inspector.stdout || '{}') as {
    result?: { tools?: unknown[] };
    schemaFindings?: { toolName: string; findings: { severity: string }[] }[];
  };
  const tools = envelope.result?.tools ?? [];
  const findings = (envelope.schemaFindings ?? []).flatMap((tool) => tool.findings);
  const errors = findings.filter((finding) => finding.severity === 'error').length;
  const warnings = findings.length - errors;
  if (findings.length > 0) console.error(inspector.stderr.trim());
  console.log(
    `${INSPECTOR} --strict: ${errors} errors, ${warnings} warnings over ${tools.length} tools (exit ${inspector.code})`,
  );
  failed = inspector.code !== 0 || tools.length === 0 || findings.length > 0;
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error('MCP Inspector --strict: FAIL (see above)');
  process.exit(1);
}
