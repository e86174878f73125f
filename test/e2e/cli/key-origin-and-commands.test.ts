// The real `tooldir` binary against the real server (A) and a second loopback server (B) that records what it
// receives: a stored key goes only to the origin it was stored for and never over plain http except to loopback;
// submit --category, categories and edit; https assumed for a bare host; a pending URL keeps its plan; one 429
// line; status words and the website's time format; Ctrl-C prints one line and exits 130.
import { readFile, stat, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliUser, hasScriptCommand, type CliUser } from './cli-process';
import { startLocalServer, type LocalServer } from './local-server';
import { startRecordingServer, type RecordingServer } from './recording-server';

let a: LocalServer;
let b: RecordingServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startLocalServer(), startRecordingServer()]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.close()]);
});
beforeEach(() => {
  b.received.length = 0;
  b.answer(() => ({
    status: 500,
    body: { error: { code: 'internal_error', message: 'B was not scripted for this' } },
  }));
});

const SITE_ID = '0b6f9a52-3c1e-4d7a-9f7e-2a4b5c6d7e8f';
const emptyList = { status: 200, body: { sites: [], total: 0, limit: 100, offset: 0 } };
const tag = () => crypto.randomUUID().slice(0, 8);

async function loggedInAtA(tier: 'none' | 'member'): Promise<{ user: CliUser; key: string }> {
  const { key } = await a.account(tier);
  const user = await cliUser(a.url);
  const login = await user.run(['login', '--key', key]);
  expect(login.code, login.stderr).toBe(0);
  return { user, key };
}

describe('a stored key belongs to the origin it was stored for (e2e)', { timeout: 120_000 }, () => {
  it('is never sent to another --base-url or TOOLDIR_BASE_URL; the CLI says so and asks for a login there', async () => {
    const { user, key } = await loggedInAtA('member');
    expect(JSON.parse(await readFile(user.configPath, 'utf8'))).toMatchObject({
      api_key: key,
      key_origin: a.url,
      base_url: a.url,
    });

    const viaFlag = await user.run(['list', '--base-url', b.url]);
    expect(viaFlag.code).toBe(1);
    expect(viaFlag.stderr).toBe(
      `Error: The stored key belongs to ${a.url}; it is not sent to ${b.url}.\n` +
        `Run \`tooldir login --base-url ${b.url}\` to store a key for it (or set TOOLDIR_API_KEY for one run).\n`,
    );
    const viaEnv = await user.run(['submit', `https://tool-${tag()}.example`, '--name', `Tool ${tag()}`], {
      env: { TOOLDIR_BASE_URL: `${b.url}/api/v1` },
    });
    expect(viaEnv.code).toBe(1);
    expect(viaEnv.stderr).toContain(`The stored key belongs to ${a.url}; it is not sent to ${b.url}.`);
    const json = await user.run(['status', SITE_ID, '--json', '--base-url', b.url]);
    expect(JSON.parse(json.stdout)).toEqual({
      error: { code: 'key_for_other_origin', message: expect.stringContaining('not sent to') },
    });
    expect(b.received).toEqual([]);

    // At its own origin it works as before.
    expect((await user.run(['list'])).code).toBe(0);
  });

  it('a key given in TOOLDIR_API_KEY goes to the address chosen for that run; a public read sends no key at all', async () => {
    const { user } = await loggedInAtA('member');
    b.answer((request) =>
      request.path.startsWith('/api/v1/categories') ? { status: 200, body: { categories: [] } } : emptyList,
    );
    expect((await user.run(['list', '--base-url', b.url], { env: { TOOLDIR_API_KEY: 'tdk_for_b_only' } })).code).toBe(
      0,
    );
    expect((await user.run(['categories', '--base-url', b.url])).code).toBe(0);
    expect(b.received.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', '/api/v1/sites', 'Bearer tdk_for_b_only'],
      ['GET', '/api/v1/categories', undefined],
    ]);
  });

  it('a login at B binds the key to B: A then never gets it', async () => {
    const user = await cliUser(a.url);
    const noEnvAddress = { env: { TOOLDIR_BASE_URL: '' } };
    b.answer(() => emptyList);
    expect((await user.run(['login', '--key', 'tdk_of_b', '--base-url', b.url], noEnvAddress)).code).toBe(0);
    expect((await user.run(['list'], noEnvAddress)).code).toBe(0); // B is now the default address
    const toA = await user.run(['list', '--base-url', a.url], noEnvAddress);
    expect(toA.code).toBe(1);
    expect(toA.stderr).toContain(`The stored key belongs to ${b.url}; it is not sent to ${a.url}.`);
    expect(b.received.map((r) => r.headers.authorization)).toEqual(['Bearer tdk_of_b', 'Bearer tdk_of_b']);
  });

  it('a key stored by an older version (no recorded origin) is sent nowhere until the next login', async () => {
    const user = await cliUser(b.url);
    await mkdir(dirname(user.configPath), { recursive: true });
    await writeFile(user.configPath, JSON.stringify({ api_key: 'tdk_old', submissions: [] }), { mode: 0o600 });
    const run = await user.run(['list']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^Error: The stored key was saved by an older tooldir .+, so it is not sent anywhere\.\nRun `tooldir login --base-url /,
    );
    expect(b.received).toEqual([]);
  });

  it('no key goes over plain http except to loopback: refused before anything is sent (exit 2), at login too', async () => {
    const user = await cliUser(a.url);
    const refused = await user.run(['list', '--base-url', 'http://tooldir.invalid'], {
      env: { TOOLDIR_API_KEY: 'tdk_secret' },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      'Error: Refusing to send an API key over plain http to tooldir.invalid: use https://tooldir.invalid.\n' +
        'Plain http is allowed only to this machine (localhost, 127.0.0.0/8, [::1]).\n',
    );
    const login = await user.run(['login', '--key', 'tdk_secret', '--base-url', 'http://tooldir.invalid:8080']);
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('over plain http to tooldir.invalid:8080');
    await expect(stat(user.configPath)).rejects.toThrow(/ENOENT/);
  });
});

describe('submit, categories and edit (e2e)', { timeout: 120_000 }, () => {
  it('tooldir categories lists the slugs submit --category takes; submit sends them, at most 3', async () => {
    const { user } = await loggedInAtA('member');
    const listed = await user.run(['categories']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^SLUG +NAME +TOOLS +DESCRIPTION$/);
    const { categories } = JSON.parse((await user.run(['categories', '--json'])).stdout) as {
      categories: { slug: string }[];
    };
    expect(categories.length).toBeGreaterThanOrEqual(4);
    const [first, second, third, fourth] = categories.map((c) => c.slug) as [string, string, string, string];

    const queued = await user.run([
      'submit',
      `https://cat-${tag()}.example`,
      '--name',
      `Cat ${tag()}`,
      '--category',
      first,
      '--category',
      second,
      '--json',
    ]);
    expect(queued.code, queued.stderr).toBe(0);
    const tooMany = await user.run([
      'submit',
      `https://cat-${tag()}.example`,
      '--name',
      `Cat ${tag()}`,
      ...[first, second, third, fourth].flatMap((s) => ['--category', s]),
    ]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toBe('Error: At most 3 categories (--category given 4 times).\n');
    const unknown = await user.run([
      'submit',
      `https://cat-${tag()}.example`,
      '--name',
      `Cat ${tag()}`,
      '--category',
      'no-such-category',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no-such-category');

    b.answer(() => ({
      status: 201,
      body: { site_id: SITE_ID, status: 'queued', via: 'membership', quota: { used_today: 1, daily_limit: 5 } },
    }));
    await user.run(['submit', 'https://cat.example', '--name', 'Cat', '--category', first, '--category', third], {
      env: { TOOLDIR_API_KEY: 'tdk_b', TOOLDIR_BASE_URL: b.url },
    });
    expect(b.received.map((r) => r.body)).toEqual([
      { name: 'Cat', url: 'https://cat.example', categories: [first, third] },
    ]);
  });

  it('tooldir edit sends the new name and/or description and shows the edit waiting for review', async () => {
    b.answer(() => ({
      status: 202,
      body: {
        site_id: SITE_ID,
        name: 'Acme',
        url: 'https://acme.example',
        status: 'live',
        is_feature: false,
        is_sponsor: false,
        submitted_at: '2026-11-21 22:00:00+00',
        live_url: `${b.url}/tools/acme`,
        pending_edit: {
          edit_id: '1d7f6c2a-3b4e-4f5a-8b9c-0d1e2f3a4b5c',
          name: 'Acme Pro',
          submitted_at: '2026-11-22T08:15:00.000Z',
        },
      },
    }));
    const env = { TOOLDIR_API_KEY: 'tdk_b', TOOLDIR_BASE_URL: b.url };
    const user = await cliUser(b.url);
    const run = await user.run(['edit', SITE_ID, '--name', 'Acme Pro', '--description', 'Writes release notes.'], {
      env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(b.received.map((r) => [r.method, r.path, r.body])).toEqual([
      ['PATCH', `/api/v1/sites/${SITE_ID}`, { name: 'Acme Pro', description: 'Writes release notes.' }],
    ]);
    expect(run.stdout.split('\n')[0]).toBe('Edit filed: the public page keeps its text until an editor approves.');
    expect(run.stdout).toContain('  Edit:       waiting for review since 2026-11-22 08:15 UTC: name "Acme Pro"');
    expect(run.stdout).toContain('  Submitted:  2026-11-21 22:00 UTC');

    const nothing = await user.run(['edit', SITE_ID], { env });
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toBe('Error: Give --name, --description, --mcp-url or --remove-mcp-url, or --url.\n');
    expect(b.received).toHaveLength(1);
  });

  it('tooldir edit against the real server: a submission that is not live is refused in the API words (exit 1)', async () => {
    const { user } = await loggedInAtA('member');
    const queued = JSON.parse(
      (await user.run(['submit', `https://edit-${tag()}.example`, '--name', `Edit ${tag()}`, '--json'])).stdout,
    ) as { site_id: string };
    const run = await user.run(['edit', queued.site_id, '--name', 'Another Name']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: .*queued/);
  });

  it('a URL typed without a scheme says that https is assumed, and https is what is sent', async () => {
    b.answer(() => ({
      status: 201,
      body: { site_id: SITE_ID, status: 'queued', via: 'membership', quota: { used_today: 1, daily_limit: 5 } },
    }));
    const user = await cliUser(b.url);
    const run = await user.run(['submit', 'acme-bare.example/app', '--name', 'Bare'], {
      env: { TOOLDIR_API_KEY: 'tdk_b' },
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('No scheme was given, so https:// was added: https://acme-bare.example/app\n');
    expect(b.received[0]?.body).toMatchObject({ url: 'https://acme-bare.example/app' });
    const typed = await user.run(['submit', 'http://acme-typed.example', '--name', 'Typed'], {
      env: { TOOLDIR_API_KEY: 'tdk_b' },
    });
    expect(typed.stderr).toBe('');
  });

  it("re-submitting a pending URL without --plan keeps its plan (no plan is sent; the server keeps the record's)", async () => {
    const { user } = await loggedInAtA('none');
    const url = `https://plan-${tag()}.example`;
    const first = await user.run(['submit', url, '--name', `Plan ${tag()}`, '--plan', 'featured', '--json']);
    expect(first.code).toBe(3);
    expect(JSON.parse(first.stdout)).toMatchObject({ plan: 'featured', reason: 'no_membership' });
    const again = await user.run(['submit', url, '--name', `Plan ${tag()}`, '--json']);
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stdout)).toMatchObject({
      site_id: JSON.parse(first.stdout).site_id,
      plan: 'featured',
      reason: 'payment_pending',
    });

    b.answer(() => ({
      status: 201,
      body: { site_id: SITE_ID, status: 'queued', via: 'membership', quota: { used_today: 1, daily_limit: 5 } },
    }));
    await user.run(['submit', url, '--name', 'Plan'], { env: { TOOLDIR_API_KEY: 'tdk_b', TOOLDIR_BASE_URL: b.url } });
    expect(b.received[0]?.body).toEqual({ name: 'Plan', url });
  });
});

describe('what the CLI prints (e2e)', { timeout: 120_000 }, () => {
  const env = { TOOLDIR_API_KEY: 'tdk_b' };

  it('a 429 is one line, whether or not the message already says when to retry', async () => {
    const user = await cliUser(b.url);
    b.answer(() => ({
      status: 429,
      headers: { 'retry-after': '42' },
      body: {
        error: {
          code: 'rate_limited',
          message: 'Too many requests: at most 10 submits per minute per account. Retry in 42 s.',
        },
      },
    }));
    const said = await user.run(['submit', 'https://x.example', '--name', 'X'], { env });
    expect(said.code).toBe(5);
    expect(said.stderr).toBe('Error: Too many requests: at most 10 submits per minute per account. Retry in 42 s.\n');
    b.answer(() => ({
      status: 429,
      headers: { 'retry-after': '7' },
      body: { error: { code: 'rate_limited', message: 'Slow down.' } },
    }));
    const unsaid = await user.run(['list'], { env });
    expect(unsaid.code).toBe(5);
    expect(unsaid.stderr).toBe('Error: Slow down. Retry in 7 s.\n');
  });

  it('list shows status words and the website time format; status too', async () => {
    const record = (status: string, name: string) => ({
      site_id: SITE_ID,
      name,
      url: `https://${name.toLowerCase()}.example`,
      status,
      is_feature: false,
      is_sponsor: false,
      submitted_at: '2026-11-21 22:05:09+00',
    });
    b.answer((request) =>
      request.path.split('?')[0] === '/api/v1/sites'
        ? {
            status: 200,
            body: {
              sites: [record('pending_review', 'Alpha'), record('crawl_failed', 'Beta'), record('live', 'Gamma')],
              total: 3,
              limit: 100,
              offset: 0,
            },
          }
        : {
            status: 200,
            body: {
              ...record('pending_review', 'Alpha'),
              history: [{ status: 'queued', at: '2026-11-21T22:05:09.000Z' }],
            },
          },
    );
    const user = await cliUser(b.url);
    const list = await user.run(['list'], { env });
    expect(list.code).toBe(0);
    const lines = list.stdout.split('\n');
    expect(lines[0]).toMatch(/^STATUS +NAME +URL +SUBMITTED +SITE_ID$/);
    expect(lines[1]).toMatch(
      /^crawled, waiting for editorial review +Alpha +https:\/\/alpha\.example +2026-11-21 22:05 UTC +0b6f9a52/,
    );
    expect(lines[2]).toMatch(/^crawl failed +Beta /);
    expect(lines[3]).toMatch(/^live +Gamma /);
    expect(list.stdout).not.toMatch(/pending_review|crawl_failed|\+00/);
    const status = await user.run(['status', SITE_ID], { env });
    expect(status.stdout).toContain('  Submitted:  2026-11-21 22:05 UTC\n');
    expect(status.stdout).toContain('    2026-11-21 22:05 UTC  queued for crawling\n');
  });

  it('Ctrl-C while waiting prints one line and exits 130', async () => {
    const pending = {
      site_id: SITE_ID,
      name: 'Wait',
      url: 'https://wait.example',
      status: 'pending_payment',
      plan: 'basic',
      reason: 'no_membership',
      checkout_url: `${b.url}/checkout/cs_1`,
      expires_at: '2099-01-01T00:00:00.000Z',
      submitted_at: '2026-11-21T22:00:00.000Z',
    };
    b.answer((request) => ({ status: request.method === 'POST' ? 402 : 200, body: pending }));
    const user = await cliUser(b.url);
    const started = user.start(['submit', 'https://wait.example', '--name', 'Wait', '--wait'], {
      env: { ...env, TOOLDIR_POLL_INTERVAL_MS: '50' },
    });
    while (b.received.filter((r) => r.method === 'GET').length < 2)
      await new Promise((resolve) => setTimeout(resolve, 20));
    started.child.kill('SIGINT');
    const run = await started.done;
    expect(run.code).toBe(130);
    const interrupted = run.stderr.split('\n').filter((line) => line.includes('Ctrl-C'));
    expect(interrupted).toEqual([
      'Interrupted (Ctrl-C). Anything already sent stays sent: `tooldir status` or `tooldir list` show where it is.',
    ]);
    expect(run.stderr.endsWith(`${interrupted[0]}\n`)).toBe(true);
    expect(run.stdout).toContain('Checkout link:');
  });

  it.skipIf(!hasScriptCommand)('Ctrl-C at the hidden key prompt exits 130 with one line, storing nothing', async () => {
    const user = await cliUser(b.url);
    const run = await user.runOnTerminal(['login'], 'API key (input hidden): ', '\u0003');
    expect(run.code).toBe(130);
    expect(run.stdout).toMatch(/API key \(input hidden\): \r?\nError: Login cancelled; nothing was stored\.\r?\n$/);
    await expect(stat(user.configPath)).rejects.toThrow(/ENOENT/);
  });
});
