// The real `tooldir` binary against the real server (CRAWL_ALLOW_PRIVATE=true): `tooldir domains`, `tooldir verify`
// (the proofs shown, the HTTP proof of a <name>.localhost site on loopback, the e-mail code's two steps) and
// `tooldir claim` (a listing of another account moves; refusals exit non-zero with the API's words).
// The server reaches only loopback: a <name>.localhost name never asks DNS, and no DNS proof is tried here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser, type CliUser } from './cli-process';
import { startLocalServer, type LocalServer } from './local-server';
import { startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';

let server: LocalServer;
let site: FixtureSite;
let fileBody = '';

beforeAll(async () => {
  site = await startFixtureSite({
    '/.well-known/tooldir-verification.txt': (_q, response) => response.writeHead(200).end(fileBody),
  });
  server = await startLocalServer({ CRAWL_ALLOW_PRIVATE: 'true' });
});
afterAll(async () => {
  await Promise.all([server?.stop(), site?.close()]);
});

async function loggedIn(tier: 'none' | 'member' = 'member'): Promise<{ user: CliUser; key: string }> {
  const { key } = await server.account(tier);
  const user = await cliUser(server.url);
  const login = await user.run(['login', '--key', key]);
  expect(login.code, login.stderr).toBe(0);
  return { user, key };
}

describe('tooldir domains, verify and claim (e2e)', { timeout: 180_000 }, () => {
  it('shows the proofs, verifies the file of a local site, and lists the domain as verified', async () => {
    const { user } = await loggedIn();
    expect((await user.run(['domains'])).stdout).toContain('No domains yet');

    const name = `cli-${crypto.randomUUID().slice(0, 6)}.localhost`;
    const shown = await user.run(['verify', `App.${name}`]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`${name}  pending`);
    expect(shown.stdout).toContain(`a TXT record at _tooldir.${name} with the value tooldir-verification=td_`);
    const token = /whose body is (td_\w+)/.exec(shown.stdout)![1]!;

    fileBody = 'not it';
    const wrong = await user.run(['verify', name, '--http', '--port', String(site.port)]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('wrong value');

    fileBody = token;
    const json = await user.run(['verify', name, '--http', '--port', String(site.port), '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ domain: name, status: 'verified', method: 'http' });
    const listed = await user.run(['domains']);
    expect(listed.stdout).toMatch(
      new RegExp(`${name.replace('.', '\\.')}  verified by http on \\d{4}-\\d\\d-\\d\\d \\(re-checked monthly\\)`),
    );
  });

  it('sends an e-mail code, refuses a wrong one and an address elsewhere, and checks its flags', async () => {
    const { user } = await loggedIn();
    const domain = `mailed-${crypto.randomUUID().slice(0, 6)}.com`;
    const elsewhere = await user.run(['verify', domain, '--email', `me@mail.${domain}`]);
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain('not at a subdomain');
    const sent = await user.run(['verify', domain, '--email', `me@${domain}`]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toContain(`A code is on its way to me@${domain}.`);
    const bad = await user.run(['verify', domain, '--code', '000000']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Wrong code');
    expect((await user.run(['domains'])).stdout).toContain(`A code was sent to me@${domain}`);

    const both = await user.run(['verify', domain, '--dns', '--http']);
    expect(both.code).toBe(2);
    const port = await user.run(['verify', domain, '--port', '80']);
    expect(port.code).toBe(2);
    expect(port.stderr).toContain('--port');
  });

  it('claims nothing without a listing or a proof, with the API words and exit codes', async () => {
    const { user } = await loggedIn();
    const name = `claim-${crypto.randomUUID().slice(0, 6)}.localhost`;
    const none = await user.run(['claim', `http://${name}/`]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No listing has this URL');
    const json = await user.run(['claim', 'https://nobody-listed.example/', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('moves a listing submitted by another account once the domain is proven', async () => {
    const domain = `taken-${crypto.randomUUID().slice(0, 6)}.localhost`;
    const other = await loggedIn();
    const submitted = await other.user.run([
      'submit',
      `https://${domain}/`,
      '--name',
      `Taken ${crypto.randomUUID().slice(0, 6)}`,
      '--json',
    ]);
    expect(submitted.code, submitted.stderr + submitted.stdout).toBe(0);
    const { site_id } = JSON.parse(submitted.stdout);

    const { user } = await loggedIn();
    const refused = await user.run(['claim', `https://${domain}/`]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`Prove control of ${domain} first`);
    const { stdout } = await user.run(['verify', domain]);
    fileBody = /whose body is (td_\w+)/.exec(stdout)![1]!;
    expect((await user.run(['verify', domain, '--http', '--port', String(site.port)])).code).toBe(0);
    const claimed = await user.run(['claim', `https://${domain}/`]);
    expect(claimed.code, claimed.stderr).toBe(0);
    expect(claimed.stdout).toContain('Claimed: the listing is now in your account.');
    expect((await user.run(['status', site_id, '--json'])).code).toBe(0);
    expect((await other.user.run(['status', site_id])).code).toBe(1);
  });
});
