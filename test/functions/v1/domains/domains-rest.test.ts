// Domains through REST: add (any spelling, refusals), the three proofs against loopback fixtures and an injected TXT
// table, the 422 reasons, the e-mail code's rules, the attempt limit, remove; nothing reaches the network.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { startFixtureSite, redirectTo, type FixtureSite } from '../../../helpers/fixture-site';
import { proofNetwork, txtTable, type ProofNetwork } from '../../../helpers/domain-fixtures';

const records: Record<string, Array<string | string[]>> = {};
const txt = txtTable(records);
let site: FixtureSite;
let network: ProofNetwork;
let t: TestApp;
const files = new Map<string, string>(); // host -> body of /.well-known/tooldir-verification.txt

beforeAll(async () => {
  site = await startFixtureSite({
    '/.well-known/tooldir-verification.txt': (request, response) => {
      const host = String(request.headers['x-test-host']);
      if (host === 'moved-site.org')
        return redirectTo('https://elsewhere.example.net/.well-known/tooldir-verification.txt')(request, response);
      if (host === 'hop-site.org') return redirectTo('/other/tooldir.txt')(request, response);
      const body = files.get(host);
      if (body === undefined) response.writeHead(404).end('no');
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    },
    '/other/tooldir.txt': (_request, response) => response.writeHead(200).end(files.get('hop-site.org') ?? ''),
  });
  network = proofNetwork(site, [
    'example.org',
    'www.example.org',
    'filesite.org',
    'www.filesite.org',
    'moved-site.org',
    'www.moved-site.org',
    'hop-site.org',
  ]);
  t = await createTestApp({ env: { CRAWL_ALLOW_PRIVATE: 'true' }, overrides: { txt, crawl: network } });
});
afterAll(async () => {
  await t.close();
  await site.close();
});
afterEach(() => expect(network.violations).toEqual([]));

const add = (key: string, domain: string) => t.request('/api/v1/domains', { method: 'POST', key, json: { domain } });
const verify = (key: string, domain: string, body: unknown) =>
  t.request(`/api/v1/domains/${encodeURIComponent(domain)}/verify`, { method: 'POST', key, json: body });

describe('POST /api/v1/domains', () => {
  it('adds the registrable domain with its token and the three methods, and answers it again on a second add', async () => {
    const m = await t.member();
    const res = await add(m.key, 'Docs.EXAMPLE.org.');
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      domain: 'example.org',
      status: 'pending',
      method: null,
      verified_at: null,
      email_code: null,
    });
    expect(body.token).toMatch(/^td_[0-9A-Za-z]{24}$/);
    expect(body.methods).toEqual({
      dns: { name: '_tooldir.example.org', type: 'TXT', value: `tooldir-verification=${body.token}` },
      http: { url: 'https://example.org/.well-known/tooldir-verification.txt', body: body.token },
      email: { address_domain: 'example.org' },
    });
    const again = await add(m.key, 'example.org');
    expect(again.status).toBe(200);
    expect((await again.json()).token).toBe(body.token);
  });

  it('gives every account its own token for the same domain (a team)', async () => {
    const [a, b] = [await t.member(), await t.member()];
    const [ra, rb] = [await (await add(a.key, 'example.org')).json(), await (await add(b.key, 'example.org')).json()];
    expect(ra.token).not.toBe(rb.token);
  });

  it('folds Unicode and punycode spellings to one domain', async () => {
    const m = await t.member();
    const unicode = await (await add(m.key, 'BÜCHER.de')).json();
    expect(unicode.domain).toBe('xn--bcher-kva.de');
    expect((await add(m.key, 'xn--bcher-kva.de')).status).toBe(200);
  });

  it.each([
    ['co.uk', 'public suffix'],
    ['github.io', 'public suffix'],
    ['203.0.113.7', 'IP address'],
    ['[2001:db8::1]', 'IP address'],
    ['https://example.org/', 'not a domain name'],
    ['nothing.invalidtld', 'known public suffix'],
  ])('refuses %s with 400 (%s) and adds nothing', async (domain, words) => {
    const m = await t.member();
    const res = await add(m.key, domain);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.message).toContain(words);
    expect((await (await t.request('/api/v1/domains', { key: m.key })).json()).domains).toEqual([]);
  });

  it('takes alice.github.io as a domain of its own (private section of the list)', async () => {
    const m = await t.member();
    expect((await (await add(m.key, 'docs.alice.github.io')).json()).domain).toBe('alice.github.io');
  });

  it('needs an API key', async () => {
    expect((await t.request('/api/v1/domains', { method: 'POST', json: { domain: 'example.org' } })).status).toBe(401);
  });
});

describe('DNS proof', () => {
  it('verifies a record at _tooldir.<domain>, joining a value split over strings', async () => {
    const m = await t.member();
    const { token } = await (await add(m.key, 'example.org')).json();
    records['_tooldir.example.org'] = [['tooldir-verifi', `cation=${token}`], 'v=spf1 -all'];
    const res = await verify(m.key, 'EXAMPLE.org', { method: 'dns' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ domain: 'example.org', status: 'verified', method: 'dns', expires_at: null });
    expect(body.verified_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    delete records['_tooldir.example.org'];
  });

  it("answers 422 with the reason and changes nothing: not found, wrong value, another domain's token, another name", async () => {
    const m = await t.member();
    const { token } = await (await add(m.key, 'dns-cases.example.org'))
      .json()
      .then(() => add(m.key, 'example.org'))
      .then((r) => r.json());
    const other = await (await add(m.key, 'bücher.de')).json();
    const expectFailure = async (words: string) => {
      const res = await verify(m.key, 'example.org', { method: 'dns' });
      expect(res.status).toBe(422);
      const body = await res.json();
      expect(body.error.code).toBe('verification_failed');
      expect(body.error.message).toContain(words);
    };
    await expectFailure('record not found');
    records['example.org'] = ['tooldir-verification=td_notthisone'];
    await expectFailure('wrong value');
    records['example.org'] = [`tooldir-verification=${other.token}`];
    await expectFailure(`your token for ${other.domain}`);
    delete records['example.org'];
    records['_tooldir.example.org.example.org'] = [`tooldir-verification=${token}`];
    await expectFailure('found on another name: the record is at _tooldir.example.org.example.org');
    delete records['_tooldir.example.org.example.org'];
    const [row] = await queryRows<{ status: string }>(
      t.deps.db,
      sql`SELECT status FROM domain_proofs WHERE account_id = ${m.accountId} AND domain = 'example.org'`,
    );
    expect(row!.status).toBe('pending');
  });
});

describe('HTTP proof', () => {
  it('verifies the file on the domain, or on www.', async () => {
    const m = await t.member();
    const { token } = await (await add(m.key, 'filesite.org')).json();
    files.set('www.filesite.org', `${token}\n`);
    const res = await verify(m.key, 'filesite.org', { method: 'http' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'verified', method: 'http' });
    expect(network.fetched).toContain('https://filesite.org/.well-known/tooldir-verification.txt');
  });

  it('refuses a file served through a redirect to another host, without following it', async () => {
    const m = await t.member();
    await add(m.key, 'moved-site.org');
    const before = network.fetched.length;
    const res = await verify(m.key, 'moved-site.org', { method: 'http' });
    expect(res.status).toBe(422);
    expect((await res.json()).error.message).toContain('redirected to another host (elsewhere.example.net)');
    expect(network.fetched.slice(before).some((u) => u.includes('elsewhere'))).toBe(false);
  });

  it('follows a redirect on the same host', async () => {
    const m = await t.member();
    const { token } = await (await add(m.key, 'hop-site.org')).json();
    files.set('hop-site.org', token);
    expect((await verify(m.key, 'hop-site.org', { method: 'http' })).status).toBe(200);
  });

  it('refuses a wrong body and a missing file with their reasons', async () => {
    const m = await t.member();
    await add(m.key, 'example.org');
    files.set('example.org', 'someone else');
    const wrong = await verify(m.key, 'example.org', { method: 'http' });
    expect(wrong.status).toBe(422);
    const message = (await wrong.json()).error.message as string;
    expect(message).toContain('wrong value');
    expect(message).toContain(
      'https://www.example.org/.well-known/tooldir-verification.txt: file not found (HTTP 404)',
    );
    files.delete('example.org');
  });

  it('refuses a body over 4 KiB', async () => {
    const m = await t.member();
    const { token } = await (await add(m.key, 'example.org')).json();
    files.set('example.org', `${token}${' '.repeat(5000)}`);
    const res = await verify(m.key, 'example.org', { method: 'http' });
    expect((await res.json()).error.message).toContain('larger than 4096 bytes');
    files.delete('example.org');
  });
});

describe('e-mail proof', () => {
  const outbox = (to: string) =>
    queryRows<{ text: string }>(t.deps.db, sql`SELECT text FROM mail_outbox WHERE "to" = ${to} ORDER BY id`);

  it('sends a code to an address at the domain; the code works once', async () => {
    const m = await t.member();
    await add(m.key, 'example.org');
    const sent = await verify(m.key, 'example.org', { method: 'email', email: 'Founder@EXAMPLE.org' });
    expect(sent.status).toBe(202);
    const record = await sent.json();
    expect(record.status).toBe('pending');
    expect(record.email_code).toMatchObject({ sent_to: 'founder@example.org', tries_left: 5 });
    const code = /Code: (\d{6})/.exec((await outbox('founder@example.org')).at(-1)!.text)![1]!;
    const ok = await verify(m.key, 'example.org', { method: 'email', code });
    expect(ok.status).toBe(200);
    const verified = await ok.json();
    expect(verified).toMatchObject({ status: 'verified', method: 'email', email_code: null });
    expect(Date.parse(verified.expires_at) - Date.parse(verified.verified_at)).toBe(365 * 86_400_000);
    const again = await verify(m.key, 'example.org', { method: 'email', code });
    expect(again.status).toBe(422);
  });

  it.each([
    ['a@mail.example.org', 'not at a subdomain'],
    ['a@example.org.evil.example', 'another domain'],
    ['a@examp1e.org', 'another domain'],
    ['not-an-address', 'valid e-mail'],
  ])('refuses %s (%s) and sends nothing', async (email, words) => {
    const m = await t.member();
    await add(m.key, 'example.org');
    const res = await verify(m.key, 'example.org', { method: 'email', email });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain(words);
    expect(await outbox(email.toLowerCase())).toEqual([]);
  });

  it('counts wrong codes: five tries, then none left', async () => {
    const m = await t.member();
    await add(m.key, 'example.org');
    await verify(m.key, 'example.org', { method: 'email', email: 'team@example.org' });
    const messages: string[] = [];
    for (let i = 0; i < 6; i++)
      messages.push(
        (await (await verify(m.key, 'example.org', { method: 'email', code: '000000x' })).json()).error.message,
      );
    expect(messages[0]).toContain('4 tries left');
    expect(messages[4]).toContain('no tries left');
    expect(messages[5]).toContain('No e-mail code');
  });
});

describe('attempt limit, removal, errors', () => {
  it('allows 10 verification attempts an hour per account, then 429 with Retry-After', async () => {
    const m = await t.member();
    await add(m.key, 'example.org');
    for (let i = 0; i < 10; i++) expect((await verify(m.key, 'example.org', { method: 'dns' })).status).toBe(422);
    const refused = await verify(m.key, 'example.org', { method: 'dns' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error.message).toContain('10 domain verification attempts per hour per account');
  });

  it('removes a domain (404 after), and 404s a domain the account does not hold', async () => {
    const m = await t.member();
    await add(m.key, 'example.org');
    expect((await t.request('/api/v1/domains/example.org', { method: 'DELETE', key: m.key })).status).toBe(204);
    expect((await t.request('/api/v1/domains/example.org', { method: 'DELETE', key: m.key })).status).toBe(404);
    expect((await verify(m.key, 'example.org', { method: 'dns' })).status).toBe(404);
  });

  it('refuses malformed verify bodies with 400', async () => {
    const m = await t.member();
    await add(m.key, 'example.org');
    for (const body of [
      {},
      { method: 'ftp' },
      { method: 'email' },
      { method: 'email', email: 'a@example.org', code: '1' },
      { method: 'dns', port: 80 },
    ]) {
      const res = await verify(m.key, 'example.org', body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
  });

  it("never shows another account's domains", async () => {
    const [a, b] = [await t.member(), await t.member()];
    await add(a.key, 'example.org');
    expect((await (await t.request('/api/v1/domains', { key: b.key })).json()).domains).toEqual([]);
    expect((await verify(b.key, 'example.org', { method: 'dns' })).status).toBe(404);
  });
});
