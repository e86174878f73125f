// `tooldir submit --wait` (the real binary) against the real app served in-process, where the test
// controls the server's clock and a loopback fixture site stands in for the submitted tool.
import { chmod, cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import type { DepsOverrides } from '../../../src/deps';
import { startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { cliUser } from './cli-process';
import { createAccountWithKey } from './local-server';

const adminToken = 'cli-wait-admin-token-0123456789abcdef';
const movingStates = [
  'waiting for payment (checkout link above)',
  'queued for crawling',
  'being crawled',
  'crawled, waiting for editorial review',
];
const cleanups: (() => Promise<void>)[] = [];

// PENDING on main: paying needs the local checkout page of the `payments` branch. The test passed on a
// merge of that branch (22:25 UTC) and runs by itself once the page exists. Delete this probe after the merge.
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(env: Record<string, string> = {}, overrides: DepsOverrides = {}): Promise<NodeServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tooldir-e2e-wait-'));
  await cp(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  const server = await startNodeServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent', ...env },
    { overrides, quiet: true },
  );
  cleanups.push(async () => {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return server;
}

async function fixtureTool(): Promise<FixtureSite> {
  const html =
    '<!doctype html><html><head><title>Fixture Writer</title>' +
    '<meta name="description" content="Writes fixtures for tests."></head><body>hi</body></html>';
  const site = await startFixtureSite({
    '/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html),
  });
  cleanups.push(() => site.close());
  return site;
}

describe('tooldir submit --wait (e2e)', { timeout: 120_000 }, () => {
  it('stops with exit 3 once the unpaid checkout link has expired, printing only the final record under --json', async () => {
    // The server's clock runs two days behind, so the link it hands out has expired by the CLI's clock.
    const server = await serve({}, { now: () => new Date(Date.now() - 2 * 86_400_000) });
    const { key } = await createAccountWithKey(server.url, adminToken, 'none');
    const user = await cliUser(server.url);
    const env = { TOOLDIR_API_KEY: key, TOOLDIR_POLL_INTERVAL_MS: '100' };

    const json = await user.run(
      ['submit', 'https://expired-link.example', '--name', 'Expired Link', '--wait', '--json'],
      { env },
    );
    expect(json.code).toBe(3);
    expect(json.stderr).toBe('');
    const record = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(record).toMatchObject({ status: 'pending_payment', name: 'Expired Link', reason: 'no_membership' });
    expect(Date.parse(String(record.expires_at))).toBeLessThan(Date.now());

    const words = await user.run(['submit', 'https://expired-link.example', '--name', 'Expired Link', '--wait'], {
      env,
    });
    expect(words.code).toBe(3);
    expect(words.stdout.trimEnd().split('\n').at(-1)).toBe(
      'The checkout link for Expired Link expired before payment; submit again for a fresh link.',
    );
  });

  it('follows a member submission through crawl and review to live and prints the live_url', async () => {
    const server = await serve({ CRAWL_ALLOW_PRIVATE: 'true', AUTO_APPROVE: 'true' });
    const site = await fixtureTool();
    const { key } = await createAccountWithKey(server.url, adminToken, 'member');
    const user = await cliUser(server.url);
    const env = { TOOLDIR_API_KEY: key, TOOLDIR_POLL_INTERVAL_MS: '200' };

    const run = await user.run(['submit', `${site.origin}/`, '--name', 'Fixture Writer', '--wait'], { env });
    expect(run.code).toBe(0);
    // Off a terminal, progress is one plain line per state seen (how many depends on the pipeline's speed).
    const progress = run.stderr.split('\n').filter(Boolean);
    expect(progress.every((line) => movingStates.includes(line))).toBe(true);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Queued Fixture Writer \(site_id [0-9a-f-]{36}\)\. Quota: used 1 of \d+ today\.$/);
    expect(lines.at(-1)).toMatch(new RegExp(`^Fixture Writer is live: ${server.url}/tools/[a-z0-9-]+$`));
    expect(site.hits.some((hit) => hit.path === '/')).toBe(true);
  });

  it('pays through --open (a scripted browser on the local checkout) and follows the payment to live', async () => {
    const server = await serve({ CRAWL_ALLOW_PRIVATE: 'true', AUTO_APPROVE: 'true' });
    const site = await fixtureTool();
    const { key } = await createAccountWithKey(server.url, adminToken, 'none');
    const user = await cliUser(server.url);
    const browser = await payingBrowser();

    const run = await user.run(['submit', `${site.origin}/`, '--name', 'Fixture Writer', '--open', '--wait'], {
      env: { TOOLDIR_API_KEY: key, TOOLDIR_POLL_INTERVAL_MS: '200', TOOLDIR_OPENER: browser },
    });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Fixture Writer \(site_id [0-9a-f-]{36}\) waits for payment\.$/);
    expect(lines[1]).toBe('Payment required: Your account has no active membership, so this submission must be paid.');
    expect(lines.at(-1)).toMatch(new RegExp(`^Fixture Writer is live: ${server.url}/tools/[a-z0-9-]+$`));
    const [opening, ...progress] = run.stderr.split('\n').filter(Boolean);
    expect(opening).toBe('Opening the checkout link in your browser…');
    expect(progress.every((line) => movingStates.includes(line))).toBe(true);
  });
});

/** An opener that behaves like a user in a browser: loads the local checkout page and presses Pay. */
async function payingBrowser(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tooldir-browser-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const script = join(dir, 'pay.mjs');
  await writeFile(
    script,
    [
      'const link = new URL(process.argv[2]);',
      "if (link.hostname !== '127.0.0.1') throw new Error(`refusing non-loopback ${link}`);",
      'const page = await (await fetch(link)).text();',
      'const token = /name="_csrf" value="([0-9a-f]+)"/.exec(page)?.[1];',
      "if (!token) throw new Error('no Pay form on the checkout page');",
      "const paid = await fetch(`${link}/pay`, { method: 'POST', body: new URLSearchParams({ _csrf: token }), redirect: 'manual' });",
      'process.exit(paid.status === 303 ? 0 : 1);',
      '',
    ].join('\n'),
  );
  await chmod(script, 0o755);
  return `${process.execPath} ${script}`;
}
