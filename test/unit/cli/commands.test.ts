// login, logout, status, list, help and version in-process against a scripted API.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program';
import { fakeWorld, pendingRecord, siteId, siteRecord, type FakeRequest } from './fake-context';

const key = { TOOLDIR_API_KEY: 'td_test' };
const unauthorized = { status: 401, body: { error: { code: 'unauthorized', message: 'Invalid API key' } } };
const emptyList = { status: 200, body: { sites: [], total: 0, limit: 100, offset: 0 } };

function configPath(home: string): string {
  return join(home, '.config', 'tooldir', 'config.json');
}

describe('tooldir login / logout', () => {
  it('checks the key, then stores it (0600) with the --base-url given', async () => {
    const world = await fakeWorld((request) =>
      request.headers.get('authorization') === 'Bearer td_good' ? emptyList : unauthorized,
    );
    const code = await runCli(['login', '--key', 'td_good', '--base-url', 'http://127.0.0.1:8787/api/v1/'], world.ctx);
    expect(code).toBe(0);
    expect(world.requests.map((request) => `${request.path}?${request.search}`)).toEqual(['/api/v1/sites?limit=1']);
    const path = configPath(world.home);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({
      api_key: 'td_good',
      key_origin: 'http://127.0.0.1:8787',
      base_url: 'http://127.0.0.1:8787',
      submissions: [],
    });
    expect(world.stdout.text).toBe(`Logged in to http://127.0.0.1:8787. Key stored in ${path}.\n`);
  });

  it('rejects a bad key and stores nothing (exit 1)', async () => {
    const world = await fakeWorld(() => unauthorized);
    expect(await runCli(['login', '--key', 'td_bad'], world.ctx)).toBe(1);
    expect(world.stderr.text).toBe('Error: Invalid key: http://127.0.0.1:8787 refused it. Nothing was stored.\n');
    await expect(stat(configPath(world.home))).rejects.toThrow(/ENOENT/);
  });

  it('reads the key from piped stdin, and an empty stdin is a usage error', async () => {
    const world = await fakeWorld(() => emptyList);
    const piped = new PassThrough();
    piped.end('td_piped\n');
    world.ctx.stdin = piped;
    expect(await runCli(['login', '--json'], world.ctx)).toBe(0);
    expect(JSON.parse(world.stdout.text)).toEqual({
      logged_in: true,
      base_url: 'http://127.0.0.1:8787',
      config_path: configPath(world.home),
    });
    expect(world.requests[0]?.headers.get('authorization')).toBe('Bearer td_piped');

    const empty = await fakeWorld(() => emptyList);
    expect(await runCli(['login'], empty.ctx)).toBe(2);
    expect(empty.requests).toEqual([]);
  });

  it('logout deletes the stored key and keeps the rest', async () => {
    const world = await fakeWorld(() => emptyList);
    await runCli(['login', '--key', 'td_good'], world.ctx);
    expect(await runCli(['logout', '--json'], world.ctx)).toBe(0);
    expect(world.stdout.text).toContain('"key_removed": true');
    // The address stays the default; the key and the origin it belonged to are gone.
    expect(JSON.parse(await readFile(configPath(world.home), 'utf8'))).toEqual({
      base_url: 'http://127.0.0.1:8787',
      submissions: [],
    });
    expect(await runCli(['list'], world.ctx)).toBe(1);
    expect(world.stderr.text).toContain('No API key. Run `tooldir login` or set TOOLDIR_API_KEY.');
  });

  it('TOOLDIR_API_KEY overrides the stored key; TOOLDIR_BASE_URL the default address', async () => {
    const world = await fakeWorld(() => emptyList, {
      env: { TOOLDIR_API_KEY: 'td_env', TOOLDIR_BASE_URL: 'http://127.0.0.1:8787/' },
    });
    await runCli(['login', '--key', 'td_stored'], world.ctx);
    await runCli(['list'], world.ctx);
    expect(world.requests.at(-1)?.headers.get('authorization')).toBe('Bearer td_env');
  });
});

describe('tooldir status', () => {
  it('reads a site_id directly and prints the state in words with the live page', async () => {
    const world = await fakeWorld(
      () => ({ status: 200, body: siteRecord('live', { live_url: 'http://127.0.0.1:8787/tools/acme-ai' }) }),
      { env: key },
    );
    expect(await runCli(['status', siteId], world.ctx)).toBe(0);
    expect(world.requests.map((request) => request.path)).toEqual([`/api/v1/sites/${siteId}`]);
    expect(world.stdout.text).toContain('Status:     live');
    expect(world.stdout.text).toContain('Live page:  http://127.0.0.1:8787/tools/acme-ai');
  });

  it('finds a URL through the list filter, then reads its detail (history and queue position)', async () => {
    const detail = {
      ...siteRecord('pending_review'),
      history: [
        { status: 'queued', at: '2026-11-21T22:00:00.000Z' },
        { status: 'crawling', at: '2026-11-21T22:01:00.000Z' },
        { status: 'pending_review', at: '2026-11-21T22:01:05.000Z' },
      ],
      queue: { stage: 'review', position: 3, estimated_at: '2026-11-21T23:05:00.000Z' },
    };
    const world = await fakeWorld(
      (request: FakeRequest) =>
        request.path === '/api/v1/sites'
          ? { status: 200, body: { sites: [siteRecord('pending_review')], total: 1, limit: 100, offset: 0 } }
          : { status: 200, body: detail },
      { env: key },
    );
    expect(await runCli(['status', 'www.acme.example', '--json'], world.ctx)).toBe(0);
    expect(world.requests[0]?.search.get('url')).toBe('https://www.acme.example');
    expect(world.requests.map((request) => request.path)).toEqual(['/api/v1/sites', `/api/v1/sites/${siteId}`]);
    expect(JSON.parse(world.stdout.text)).toEqual(detail);

    world.stdout.text = '';
    expect(await runCli(['status', 'www.acme.example'], world.ctx)).toBe(0);
    // One time format, the website's, on every line.
    expect(world.stdout.text).toMatch(/^ {2}Submitted: {2}2026-11-21 22:00 UTC$/m);
    expect(world.stdout.text).toMatch(/^ {2}Queue: {6}3rd in line for review, expected around 2026-11-21 23:05 UTC$/m);
    expect(world.stdout.text).toMatch(
      /^ {2}History:\n {4}2026-11-21 22:00 UTC {2}queued for crawling\n {4}2026-11-21 22:01 UTC {2}being crawled\n/m,
    );
  });

  it('finds an unpaid submission by URL through the site_ids it recorded', async () => {
    const world = await fakeWorld(
      (request: FakeRequest) => {
        if (request.method === 'POST') return { status: 402, body: pendingRecord() };
        if (request.path === '/api/v1/sites') return emptyList;
        return { status: 200, body: pendingRecord() };
      },
      { env: key },
    );
    await runCli(['submit', 'https://acme.example/', '--name', 'Acme AI'], world.ctx);
    world.stdout.text = '';
    expect(await runCli(['status', 'https://acme.example'], world.ctx)).toBe(0);
    expect(world.requests.at(-1)?.path).toBe(`/api/v1/sites/${siteId}`);
    expect(world.stdout.text).toContain('Status:     waiting for payment');
    expect(world.stdout.text).toContain('Checkout link: http://127.0.0.1:8787/checkout/cs_1');
  });

  it('says so when no submission matches (exit 1), and 404 by id is exit 1 with the API message', async () => {
    const world = await fakeWorld(
      (request) =>
        request.path === '/api/v1/sites'
          ? emptyList
          : { status: 404, body: { error: { code: 'not_found', message: 'Submission not found' } } },
      { env: key },
    );
    expect(await runCli(['status', 'https://nothing.example'], world.ctx)).toBe(1);
    expect(world.stderr.text).toContain('No submission of yours was found for https://nothing.example.');
    expect(await runCli(['status', siteId], world.ctx)).toBe(1);
    expect(world.stderr.text).toContain('Error: Submission not found');
    expect(await runCli(['status', 'nonsense'], world.ctx)).toBe(2);
  });
});

describe('tooldir list', () => {
  it('passes --limit/--offset and prints the envelope under --json', async () => {
    const envelope = { sites: [siteRecord('live')], total: 3, limit: 1, offset: 2 };
    const world = await fakeWorld(() => ({ status: 200, body: envelope }), { env: key });
    expect(await runCli(['list', '--limit', '1', '--offset', '2', '--json'], world.ctx)).toBe(0);
    expect(world.requests[0]?.search.toString()).toBe('limit=1&offset=2');
    expect(JSON.parse(world.stdout.text)).toEqual(envelope);
  });

  it('rejects out-of-range paging as usage errors', async () => {
    const world = await fakeWorld(() => emptyList, { env: key });
    for (const args of [
      ['--limit', '0'],
      ['--limit', '101'],
      ['--offset', '-1'],
      ['--limit', 'x'],
    ]) {
      expect(await runCli(['list', ...args], world.ctx)).toBe(2);
    }
    expect(world.requests).toEqual([]);
  });
});

describe('help, version, network', () => {
  it('documents exit codes in every command help and exits 0', async () => {
    for (const command of [[], ['login'], ['logout'], ['submit'], ['status'], ['list']]) {
      const world = await fakeWorld(() => emptyList);
      expect(await runCli([...command, '--help'], world.ctx)).toBe(0);
      expect(world.stdout.text).toContain('3  payment required');
      expect(world.stdout.text).toContain('--json');
    }
  });

  it('prints the version', async () => {
    const world = await fakeWorld(() => emptyList);
    expect(await runCli(['--version'], world.ctx)).toBe(0);
    expect(world.stdout.text).toBe('9.9.9\n');
  });

  it('turns an unreachable server into one friendly line', async () => {
    const world = await fakeWorld(
      () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
      },
      { env: key },
    );
    expect(await runCli(['list'], world.ctx)).toBe(1);
    expect(world.stderr.text).toBe(
      'Error: Could not reach the tooldir API at http://127.0.0.1:8787 (connection refused).\n' +
        'Check the address (--base-url or TOOLDIR_BASE_URL) and your connection.\n',
    );
  });

  it('an unknown command or none at all is a usage error', async () => {
    const world = await fakeWorld(() => emptyList);
    expect(await runCli(['frobnicate'], world.ctx)).toBe(2);
    expect(await runCli([], world.ctx)).toBe(2);
  });
});
