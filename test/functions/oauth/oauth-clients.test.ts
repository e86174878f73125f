// How clients identify themselves: Dynamic Client Registration (RFC 7591) and Client ID Metadata Documents
// fetched through the crawler's safe fetcher. The crawler's network here is simulated: no socket is opened,
// and any lookup or fetch the test did not plan is recorded as a violation (checked after every test).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../pages/account-client';
import { REDIRECT, authorizeQuery, consent, createOAuthTestApp, pkcePair, registerClient, signedInPerson, tokenRequest, type OAuthTestApp } from './oauth-harness';

const CIMD = 'https://assistant.example/oauth/client.json';
const document = (overrides: Record<string, unknown> = {}) => () =>
  Response.json({ client_id: CIMD, client_name: 'Doc Assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...overrides });

let t: OAuthTestApp;
beforeAll(async () => {
  t = await createOAuthTestApp({
    dns: {
      'assistant.example': ['93.184.215.14'],
      'private.example': ['10.1.2.3'],
      'metadata.example': ['169.254.169.254'],
      'rebind.example': ['93.184.215.15', '127.0.0.1'],
      'big.example': ['93.184.215.16'],
    },
    pages: {
      [CIMD]: document(),
      'https://big.example/client.json': () => Response.json({ client_id: 'https://big.example/client.json', redirect_uris: [REDIRECT], pad: 'x'.repeat(10_000) }),
    },
  });
});
afterEach(() => expect(t.network.violations).toEqual([]));
afterAll(() => t.close());

describe('POST /oauth/register', () => {
  it('registers a public client and answers the RFC 7591 body', async () => {
    const { res, body } = await registerClient(t, { client_name: 'My  Assistant', redirect_uris: [REDIRECT, 'https://app.example/cb'], token_endpoint_auth_method: 'client_secret_basic' });
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

  it('refuses http:// off loopback, custom schemes and fragments with invalid_redirect_uri', async () => {
    for (const uri of ['http://app.example/cb', 'http://192.168.1.5/cb', 'myapp://cb', 'https://app.example/cb#x', 'javascript:alert(1)']) {
      const { res, body } = await registerClient(t, { redirect_uris: [uri] });
      expect(res.status).toBe(400);
      expect(body.error).toBe('invalid_redirect_uri');
      expect(body.error_description).toContain('Refused redirect URI');
    }
    for (const uri of ['http://127.0.0.1:9999/cb', 'http://[::1]/cb', 'http://localhost:3000/cb']) {
      expect((await registerClient(t, { redirect_uris: [uri] })).res.status).toBe(201);
    }
  });

  it('malformed metadata gets invalid_client_metadata, never a 5xx', async () => {
    for (const body of [[], 'text', { redirect_uris: [REDIRECT], grant_types: ['client_credentials'] }, { redirect_uris: [REDIRECT], client_name: 'x'.repeat(200) }]) {
      const { res, body: answer } = await registerClient(t, body);
      expect(res.status).toBe(400);
      expect(['invalid_client_metadata', 'invalid_redirect_uri']).toContain(answer.error);
    }
    const notJson = await t.app.request('http://tooldir.test/oauth/register', { method: 'POST', headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueIp() }, body: '{' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error).toBe('invalid_client_metadata');
  });

  it('is rate-limited per client IP before anything is written', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect((await registerClient(t, { redirect_uris: [REDIRECT] }, ip)).res.status).toBe(201);
    const { res, body } = await registerClient(t, { redirect_uris: [REDIRECT] }, ip);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(body.error).toBe('temporarily_unavailable');
    expect((await registerClient(t, { redirect_uris: [REDIRECT] }, uniqueIp())).res.status).toBe(201);
  });
});

describe('Client ID Metadata Documents', () => {
  it('an https client_id is fetched once through the safe fetcher, cached, and shown on the consent page', async () => {
    const { person } = await signedInPerson(t);
    const pkce = pkcePair();
    const { html, location } = await consent(t, person, authorizeQuery(CIMD, pkce.challenge));
    expect(html).toContain('Doc Assistant');
    const { res, body } = await tokenRequest(t, { grant_type: 'authorization_code', client_id: CIMD, code: location.searchParams.get('code')!, redirect_uri: REDIRECT, code_verifier: pkce.verifier });
    expect(res.status).toBe(200);
    expect(body.access_token).toMatch(/^tdat_/);
    await t.request(`/oauth/authorize?${authorizeQuery(CIMD, pkce.challenge)}`);
    expect(t.network.fetched.filter((u) => u === CIMD)).toHaveLength(1);
  });

  it('a document at a private, link-local or loopback address is refused before any packet', async () => {
    for (const host of ['private.example', 'metadata.example', 'rebind.example']) {
      const res = await t.request(`/oauth/authorize?${authorizeQuery(`https://${host}/client.json`, pkcePair().challenge)}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(`client_id document at https://${host}/client.json cannot be used`);
    }
    for (const literal of ['https://127.0.0.1/client.json', 'https://[::1]/client.json', 'https://10.0.0.1/client.json']) {
      expect((await t.request(`/oauth/authorize?${authorizeQuery(literal, pkcePair().challenge)}`)).status).toBe(400);
    }
    expect(t.network.fetched.some((u) => !u.startsWith('https://assistant.example/') && !u.startsWith('https://big.example/'))).toBe(false);
  });

  it('a document larger than the bound is refused', async () => {
    const res = await t.request(`/oauth/authorize?${authorizeQuery('https://big.example/client.json', pkcePair().challenge)}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('larger than');
  });
});
