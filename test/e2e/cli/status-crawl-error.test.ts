// `tooldir submit --wait` and `tooldir status` (the real binary) on a crawl that failed: they print the kind of
// failure in words, never the resolved addresses or internal names behind it. The server runs in-process with
// a simulated Internet for its crawler (no socket beyond the loopback HTTP between CLI and server).
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { dnsFailure, redirectPage, simulatedNetwork } from '../../helpers/simulated-network';
import { cliUser, type CliUser } from './cli-process';
import { createAccountWithKey } from './local-server';

const adminToken = 'cli-crawl-error-admin-token-0123456789';
const SECRETS = ['grafana.ops.internal', '192.168.77.5', '93.184.216.34', 'ENOTFOUND', '10.0.0.53', 'ns1.ops.internal'];
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/;

const network = simulatedNetwork({
  dns: {
    'redirector.example': ['93.184.216.34'],
    'grafana.ops.internal': ['192.168.77.5'],
    'gone.example': dnsFailure('getaddrinfo ENOTFOUND gone.example (resolver 10.0.0.53, ns1.ops.internal)'),
  },
  pages: { 'http://redirector.example/': redirectPage('http://grafana.ops.internal/') },
});

let server: NodeServer;
let dataDir: string;
let user: CliUser;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tooldir-e2e-crawl-error-'));
  await cp(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  server = await startNodeServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_TOKEN: adminToken,
      LOG_LEVEL: 'silent',
      CRAWL_MAX_ATTEMPTS: '1',
    },
    { overrides: { crawl: network }, quiet: true },
  );
  const { key } = await createAccountWithKey(server.url, adminToken, 'member');
  user = await cliUser(server.url);
  env = { TOOLDIR_API_KEY: key, TOOLDIR_POLL_INTERVAL_MS: '100' };
});

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  expect(network.violations).toEqual([]);
});

const expectNothingOfOurNetwork = (output: string) => {
  for (const secret of SECRETS) expect(output).not.toContain(secret);
  // The CLI prints the server's URL (127.0.0.1) nowhere in these commands' output.
  expect(output).not.toMatch(IPV4);
};

describe('tooldir on a failed crawl (e2e)', { timeout: 120_000 }, () => {
  it.each([
    [
      'http://redirector.example/',
      'Internal Redirect',
      'blocked_address',
      'the address is not public',
      ['grafana.ops.internal', '192.168.77.5'],
    ],
    [
      'http://gone.example/',
      'Gone Host',
      'dns_error',
      'the host name could not be resolved',
      ['ENOTFOUND', 'ns1.ops.internal'],
    ],
  ])('%s: submit --wait, status and status --json name only the kind', async (url, name, code, message, detailed) => {
    const waited = await user.run(['submit', url, '--name', name, '--wait'], { env });
    expect(waited.code).toBe(1);
    expect(waited.stdout.trimEnd().split('\n').at(-1)).toMatch(
      new RegExp(`^The crawl of ${name} failed: ${message}\\. Fix the site, then: tooldir retry [0-9a-f-]{36}$`),
    );
    expectNothingOfOurNetwork(waited.stdout + waited.stderr);

    const status = await user.run(['status', url], { env });
    expect(status.code).toBe(0);
    const lines = status.stdout.trimEnd().split('\n');
    expect(lines).toContain('  Status:     crawl failed (fix the site, then `tooldir retry`)');
    expect(lines).toContain(`  Failure:    ${message}`);
    // The history block follows; its last step carries the same words (docs/submission-progress.md).
    expect(lines.at(-1)).toMatch(
      new RegExp(`^ {4}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC {2}crawl failed: ${message}$`),
    );
    expectNothingOfOurNetwork(status.stdout + status.stderr);

    const json = await user.run(['status', url, '--json'], { env });
    expect(json.code).toBe(0);
    const record = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({ url, status: 'crawl_failed', crawl_error: { code, message } });
    expectNothingOfOurNetwork(json.stdout);

    // The operator API has what the CLI never showed.
    const operator = await fetch(`${server.url}/api/v1/admin/sites/${String(record.site_id)}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    });
    const body = (await operator.json()) as { pipeline: { crawl_error: string; crawl_error_kind: string } };
    expect(body.pipeline.crawl_error_kind).toBe(code);
    for (const secret of detailed) expect(body.pipeline.crawl_error).toContain(secret);
  });

  it('tooldir retry puts the failed crawl back in the queue, three times a day, then exits 5', async () => {
    const submitted = await user.run(
      ['submit', 'http://gone.example/again', '--name', 'Retried Gone Host', '--wait', '--json'],
      { env },
    );
    const siteId = String((JSON.parse(submitted.stdout) as { site_id: string }).site_id);
    expect(submitted.code).toBe(1);

    for (let round = 1; round <= 3; round++) {
      const retried = await user.run(['retry', siteId], { env });
      expect(retried.code, retried.stderr).toBe(0);
      expect(retried.stdout.split('\n')[0]).toBe('Queued again: the crawler will try the site once more.');
      expectNothingOfOurNetwork(retried.stdout + retried.stderr);
      // Wait for the crawl to fail again (the name never resolves).
      for (let i = 0; i < 100; i++) {
        const status = JSON.parse((await user.run(['status', siteId, '--json'], { env })).stdout) as { status: string };
        if (status.status === 'crawl_failed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const spent = await user.run(['retry', siteId], { env });
    expect(spent.code).toBe(5);
    // One line: the message says when retries start again, so Retry-After adds nothing.
    expect(spent.stderr).toBe('Error: This submission was retried 3 times today; retries start again at 00:00 UTC.\n');

    const json = await user.run(['retry', siteId, '--json'], { env });
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'rate_limited' } });

    const usage = await user.run(['retry', 'not-a-site-id'], { env });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Expected a site_id (UUID), got "not-a-site-id".');
  });
});
