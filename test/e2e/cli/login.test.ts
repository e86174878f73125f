// The real `tooldir` binary against a running local server: login, logout, help, version, network errors.
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser, hasScriptCommand } from './cli-process';
import { freePort, startLocalServer, type LocalServer } from './local-server';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('tooldir login / logout (e2e)', { timeout: 120_000 }, () => {
  it('rejects a bad key with exit 1 and stores nothing', async () => {
    const user = await cliUser(server.url);
    const run = await user.run(['login', '--key', 'td_not_a_real_key']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`Error: Invalid key: ${server.url} refused it. Nothing was stored.\n`);
    await expect(stat(user.configPath)).rejects.toThrow(/ENOENT/);
  });

  it('stores a good key read from stdin in a 0600 file in a 0700 directory; logout deletes it', async () => {
    const { key } = await server.account('member');
    const user = await cliUser(server.url);
    const login = await user.run(['login', '--json'], { input: `${key}\n` });
    expect(login.code).toBe(0);
    expect(JSON.parse(login.stdout)).toEqual({ logged_in: true, base_url: server.url, config_path: user.configPath });
    expect(login.stdout).not.toContain(key);
    expect((await stat(user.configPath)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(user.configPath))).mode & 0o777).toBe(0o700);

    const list = await user.run(['list', '--json']);
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ sites: [], limit: 100, offset: 0 });

    const logout = await user.run(['logout']);
    expect(logout.code).toBe(0);
    expect(logout.stdout).toBe(`Logged out: the key stored in ${user.configPath} was deleted.\n`);
    const after = await user.run(['list']);
    expect(after.code).toBe(1);
    expect(after.stderr).toBe('Error: No API key. Run `tooldir login` or set TOOLDIR_API_KEY.\n');
  });

  it.skipIf(!hasScriptCommand)('asks for the key on a terminal without echoing it', async () => {
    const { key } = await server.account('member');
    const user = await cliUser(server.url);
    const run = await user.runOnTerminal(['login'], 'API key (input hidden): ', key);
    expect(run.code).toBe(0);
    // Terminal output: the prompt, then (no key) the confirmation.
    expect(run.stdout).not.toContain(key);
    expect(run.stdout).toMatch(
      /API key \(input hidden\): \r?\nLogged in to http:\/\/127\.0\.0\.1:\d+\. Key stored in /,
    );
    expect(JSON.parse(await readFile(user.configPath, 'utf8'))).toMatchObject({ api_key: key });
  });

  it('--base-url at login is stored and used later; TOOLDIR_API_KEY overrides the stored key', async () => {
    const { key } = await server.account('member');
    const user = await cliUser(server.url);
    const login = await user.run(['login', '--key', key, '--base-url', `${server.url}/api/v1`], {
      env: { TOOLDIR_BASE_URL: '' },
    });
    expect(login.code).toBe(0);
    const stored = await user.run(['list'], { env: { TOOLDIR_BASE_URL: '' } });
    expect(stored.code).toBe(0);
    const overridden = await user.run(['list'], { env: { TOOLDIR_BASE_URL: '', TOOLDIR_API_KEY: 'td_wrong' } });
    expect(overridden.code).toBe(1);
    expect(overridden.stderr).toMatch(/^Error: .+\nCheck the key, or run `tooldir login` again\.\n$/);
  });
});

describe('tooldir help, version and errors (e2e)', { timeout: 120_000 }, () => {
  it('--help on every command documents the exit codes; --version prints the package version', async () => {
    const user = await cliUser(server.url);
    for (const command of [[], ['login'], ['logout'], ['submit'], ['status'], ['list']]) {
      const run = await user.run([...command, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('5  rate limited');
    }
    const version = await user.run(['--version']);
    expect(version).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('runs from any directory, whatever tsconfig.json that directory holds', async () => {
    const user = await cliUser(server.url);
    const project = await mkdtemp(join(tmpdir(), 'tooldir-other-project-'));
    // A project whose path mapping would swap out the CLI's argument library if tsx used the cwd's tsconfig.
    await writeFile(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { commander: ['./hijack.ts'] } } }),
    );
    await writeFile(join(project, 'hijack.ts'), 'throw new Error("hijacked");\n');
    const run = await user.run(['--version'], { cwd: project });
    expect(run).toEqual({ code: 0, stdout: '0.1.0\n', stderr: '' });
  });

  it('an unreachable server gives one friendly line and exit 1, also under --json', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const user = await cliUser(closed);
    const run = await user.run(['list'], { env: { TOOLDIR_API_KEY: 'td_x' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Error: Could not reach the tooldir API at ${closed} (connection refused).\n` +
        'Check the address (--base-url or TOOLDIR_BASE_URL) and your connection.\n',
    );
    const json = await user.run(['status', 'https://acme.example', '--json'], { env: { TOOLDIR_API_KEY: 'td_x' } });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'network_error' } });
  });

  it('usage errors exit 2 without calling the server', async () => {
    const user = await cliUser(`http://127.0.0.1:${await freePort()}`);
    for (const args of [
      ['submit', 'https://acme.example'],
      ['list', '--limit', '500'],
      ['status', 'not a url'],
      ['frobnicate'],
    ]) {
      const run = await user.run(args, { env: { TOOLDIR_API_KEY: 'td_x' } });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).not.toContain('Could not reach');
    }
  });
});
