// How clients identify themselves: Dynamic Client Registration (RFC 7591) and Client ID Metadata Documents
// fetched through the crawler's safe fetcher. The crawler's network here is simulated: no socket is opened,
// and any lookup or fetch the test did not plan is recorded as a violation (checked after every test).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../pages/account-client';
import {
  REDIRECT,
  authorizeQuery,
  consent,
  createOAuthTestApp,
  pkcePair,
  registerClient,
  signedInPerson,
  tokenRequest,
  type OAuthTestApp,
} from './oauth-harness';

const CIMD = 'https://assistant.example/oauth/client.json';
const document =
  (overrides: Record<string, unknown> = {}) =>
  () =>
    Response.json({
      client_id: CIMD,
      client_name: 'Doc Assistant',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      ...overrides,
    });

let t: OAuthTestApp;
beforeAll(async () => {
  t = await createOAuthTestApp({
    dns: {
      'assistant.example': ['93.184.215.14'],
      'private.example': ['10.1.2.3'],
      'metadata.example': ['169.254.169.254'],
      'rebind.example': ['93.184.215.15', '127.0.0.1'],
      'big.example': ['93.184.215.16'],
      'bidi.example': ['93.184.215.17'],
    },
    pages: {
      [CIMD]: document(),
      'https://bidi.example/client.json': () =>
        Response.json({
          client_id: 'https://bidi.example/client.json',
          client_name: 'Trusted\u202Eppa.live',
          redirect_uris: [REDIRECT],
        }),
      'https://big.example/client.json': () =>
        Response.json({
          client_id: 'https://big.example/client.json',
          redirect_uris: [REDIRECT],
          pad: 'x'.repeat(10_000),
        }),
    },
  });
});
afterEach(() => expect(t.network.violations).toEqual([]));
afterAll(() => t.close());

describe('POST /oauth/register', () => {
  it('registers a public client and answers the RFC 7591 body', async () => {
    const { res, body } = await registerClient(t, {
      client_name: 'My  Assistant',
      redirect_uris: [REDIRECT, 'https://app.example/cb'],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(res.status).toBe(201);
    expect(body).toEqual({
      client_id: expect.stringMatching(/^tdcl_[0-9A-Za-z]{22}$/),
      client_id_issued_at: expect.any(Number),
      client_name: 'My Assistant',
      redirect_uris: [REDIRECT, 'https://app.example/cb'],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    expect(body).not.toHaveProperty('client_secret');
  });

  it("accepts https, http on loopback and private-use schemes (RFC 8252 §7.1) such as Cursor's and VS Code's", async () => {
    const accepted = [
      'http://127.0.0.1:9999/cb',
      'http://[::1]/cb',
      'http://localhost:3000/cb',
      'https://app.example/cb?x=1',
      'cursor://anysphere.cursor-retrieval/oauth/callback',
      'vscode://vscode.github-authentication/did-authenticate',
      'com.example.app:/oauth2redirect',
      'com.example.app:cb',
    ];
    for (const uri of accepted) {
      const { res, body } = await registerClient(t, { redirect_uris: [uri] });
      expect(res.status, uri).toBe(201);
      expect(body.redirect_uris).toEqual([uri]);
    }
  });

  it("refuses the web's own schemes, http off loopback, fragments and hosts a URL parser would change, naming the URI", async () => {
    const refused = [
      'javascript:alert(1)',
      'JavaScript://x/%0aalert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox(1)',
      'about:blank',
      'blob:https://app.example/0b2c',
      'view-source:https://app.example/',
      'http://app.example/cb',
      'http://192.168.1.5/cb',
      'https://app.example/cb#x',
      'cursor://anysphere.cursor-retrieval/cb#frag',
      'https://user:pw@app.example/cb',
      // What reaches the consent page's CSP header must be what was registered: no ; ' , _ or encoded host.
      'https://app.example;script-src:*/cb',
      "cursor://a;b'c/cb",
      'https://a_b.example/cb',
      'https://a%41.example/cb',
      'https://exa\tmple.com/cb',
      'https://app.example\n/cb',
      'HTTPS://APP.EXAMPLE/cb',
      'https://bücher.example/cb',
      'https://app.example:443/cb',
      'not a url',
    ];
    for (const uri of refused) {
      const { res, body } = await registerClient(t, { redirect_uris: ['https://fine.example/cb', uri] });
      expect(res.status, uri).toBe(400);
      expect(body.error, uri).toBe('invalid_redirect_uri');
      expect(body.error_description, uri).toMatch(/^Refused redirect URI ".+": it/);
    }
  });

  it('refuses a client_name with control or format characters (bidi overrides included); RTL text is a name like any other', async () => {
    for (const name of [
      'Safe\u202Egnp.exe',
      'Zero\u200Bwidth',
      'Bell\u0007',
      'Tab\there',
      'Line\nbreak',
      'BOM\uFEFFname',
      'Soft\u00ADhyphen',
      'Isolate\u2066x\u2069',
    ]) {
      const { res, body } = await registerClient(t, { client_name: name, redirect_uris: [REDIRECT] });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(body).toEqual({
        error: 'invalid_client_metadata',
        error_description:
          'client_name must not contain control or format characters (such as U+202E, which reverses the text after it).',
      });
    }
    const { res, body } = await registerClient(t, { client_name: 'مساعد الأدوات', redirect_uris: [REDIRECT] });
    expect(res.status).toBe(201);
    expect(body.client_name).toBe('مساعد الأدوات');
  });

  it('malformed metadata gets invalid_client_metadata, never a 5xx', async () => {
    for (const body of [
      [],
      'text',
      { redirect_uris: [REDIRECT], grant_types: ['client_credentials'] },
      { redirect_uris: [REDIRECT], client_name: 'x'.repeat(200) },
    ]) {
      const { res, body: answer } = await registerClient(t, body);
      expect(res.status).toBe(400);
      expect(['invalid_client_metadata', 'invalid_redirect_uri']).toContain(answer.error);
    }
    const notJson = await t.app.request('http://tooldir.test/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueIp() },
      body: '{',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error).toBe('invalid_client_metadata');
  });

  it('is rate-limited per client IP before anything is written', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++)
      expect((await registerClient(t, { redirect_uris: [REDIRECT] }, ip)).res.status).toBe(201);
    const { res, body } = await registerClient(t, { redirect_uris: [REDIRECT] }, ip);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(body.error).toBe('temporarily_unavailable');
    expect((await registerClient(t, { redirect_uris: [REDIRECT] }, uniqueIp())).res.status).toBe(201);
  });
});

describe('a private-use scheme redirect through consent', () => {
  it("names the app's scheme and host, lets the form reach that scheme only, and redirects the code there", async () => {
    for (const [uri, label, source] of [
      ['cursor://anysphere.cursor-retrieval/oauth/callback', 'cursor://anysphere.cursor-retrieval', 'cursor:'],
      ['com.example.app:/oauth2redirect', 'com.example.app:', 'com.example.app:'],
    ]) {
      const { res, body } = await registerClient(t, { client_name: 'Desktop Host', redirect_uris: [uri] });
      expect(res.status).toBe(201);
      const clientId = body.client_id as string;
      const { person } = await signedInPerson(t);
      const pkce = pkcePair();
      const query = authorizeQuery(clientId, pkce.challenge, { redirect_uri: uri! });
      const page = await person.request((await person.request(`/oauth/authorize?${query}`)).headers.get('location')!);
      expect(await page.text()).toContain(`<strong id="redirect-host">${label}</strong>`);
      expect(page.headers.get('content-security-policy')!.split('; ')).toContain(`form-action 'self' ${source}`);
      const { location } = await consent(t, person, query);
      expect(location.href.startsWith(`${uri}?code=tdac_`)).toBe(true);
      const exchanged = await tokenRequest(t, {
        grant_type: 'authorization_code',
        client_id: clientId,
        code: location.searchParams.get('code')!,
        redirect_uri: uri!,
        code_verifier: pkce.verifier,
      });
      expect(exchanged.res.status).toBe(200);
    }
  });
});

describe('Client ID Metadata Documents', () => {
  it('an https client_id is fetched once through the safe fetcher, cached, and shown on the consent page', async () => {
    const { person } = await signedInPerson(t);
    const pkce = pkcePair();
    const { html, location } = await consent(t, person, authorizeQuery(CIMD, pkce.challenge));
    expect(html).toContain('Doc Assistant');
    const { res, body } = await tokenRequest(t, {
      grant_type: 'authorization_code',
      client_id: CIMD,
      code: location.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: pkce.verifier,
    });
    expect(res.status).toBe(200);
    expect(body.access_token).toMatch(/^tdat_/);
    await t.request(`/oauth/authorize?${authorizeQuery(CIMD, pkce.challenge)}`);
    expect(t.network.fetched.filter((u) => u === CIMD)).toHaveLength(1);
  });

  it('a document at a private, link-local or loopback address is refused before any packet', async () => {
    for (const host of ['private.example', 'metadata.example', 'rebind.example']) {
      const res = await t.request(
        `/oauth/authorize?${authorizeQuery(`https://${host}/client.json`, pkcePair().challenge)}`,
      );
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(`client_id document at ${host} cannot be used: it could not be fetched`);
    }
    for (const literal of [
      'https://127.0.0.1/client.json',
      'https://[::1]/client.json',
      'https://10.0.0.1/client.json',
    ]) {
      expect((await t.request(`/oauth/authorize?${authorizeQuery(literal, pkcePair().challenge)}`)).status).toBe(400);
    }
    expect(t.network.fetched.some((u) => !/^https:\/\/(assistant|big|bidi)\.example\//.test(u))).toBe(false);
  });

  it('a document whose client_name carries a bidi override is refused like a registration', async () => {
    const res = await t.request(
      `/oauth/authorize?${authorizeQuery('https://bidi.example/client.json', pkcePair().challenge)}`,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('client_name must not contain control or format characters');
  });

  it('a document larger than the bound is refused', async () => {
    const res = await t.request(
      `/oauth/authorize?${authorizeQuery('https://big.example/client.json', pkcePair().challenge)}`,
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('larger than');
  });
});
