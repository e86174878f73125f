// Authorization, consent and code exchange: the happy path and the attacks (refresh and revocation: oauth-refresh-revoke.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ORIGIN,
  REDIRECT,
  RESOURCE,
  authorizeQuery,
  consent,
  createOAuthTestApp,
  mcpCall,
  newClient,
  pkcePair,
  signedInPerson,
  tokenRequest,
  type OAuthTestApp,
} from './oauth-harness';
import { PageClient, csrfOf, latestCode, newEmail } from '../pages/account-client';

/** The token is accepted on /mcp: search_tools answers its page of tools, not an error. */
async function expectSearchAnswered(token: string) {
  const res = await mcpCall(t, token, 'search_tools', {});
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: { isError?: boolean; structuredContent: unknown } };
  expect(body.result.isError).toBeUndefined();
  expect(body.result.structuredContent).toEqual(expect.objectContaining({ tools: expect.any(Array) }));
}

let t: OAuthTestApp;
let clock = new Date();
beforeAll(async () => {
  // A clock the expiry tests move forward; every other test leaves it at the real time.
  t = await createOAuthTestApp({ overrides: { now: () => clock } });
});
afterAll(async () => {
  expect(t.network.violations).toEqual([]);
  await t.close();
});

/** A code for a fresh client and person, not yet exchanged. */
async function freshCode() {
  const clientId = await newClient(t);
  const { person } = await signedInPerson(t);
  const pkce = pkcePair();
  const { location } = await consent(t, person, authorizeQuery(clientId, pkce.challenge));
  expect(location.origin + location.pathname).toBe(REDIRECT);
  expect(location.searchParams.get('state')).toBe('state-123');
  expect(location.searchParams.get('iss')).toBe(ORIGIN);
  return { clientId, person, ...pkce, code: location.searchParams.get('code')! };
}

const exchange = (clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) =>
  tokenRequest(t, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: RESOURCE,
    ...extra,
  });

describe('authorization request', () => {
  it('the consent page names the client as unverified, its redirect host and the scopes in words; no framing', async () => {
    const clientId = await newClient(t);
    const { person } = await signedInPerson(t);
    const first = await person.request(`/oauth/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
    const page = await person.request(first.headers.get('location')!);
    const html = await page.text();
    expect(html).toContain(
      '<strong id="client-name"><bdi>Test Assistant</bdi></strong>\nat <strong id="redirect-host">127.0.0.1:43210</strong>',
    );
    expect(html).toContain('unverified');
    expect(html).toContain('Submit tools on your behalf');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' http://127.0.0.1:43210");
  });

  it('not signed in: sign-in first, then back to the consent page', async () => {
    const clientId = await newClient(t);
    const person = new PageClient(t);
    const query = authorizeQuery(clientId, pkcePair().challenge);
    const consentPath = (await person.request(`/oauth/authorize?${query}`)).headers.get('location')!;
    const toSignIn = await person.request(consentPath);
    expect(toSignIn.status).toBe(303);
    const signInPath = toSignIn.headers.get('location')!;
    expect(signInPath).toBe(`/account/sign-in?next=${encodeURIComponent(consentPath)}`);
    const email = newEmail();
    const emailPage = await person.page(signInPath);
    const codePage = await person.request('/account/sign-in', {
      form: { _csrf: csrfOf(emailPage.html), email, next: consentPath },
    });
    const codeHtml = await codePage.text();
    expect(codeHtml).toContain(`name="next" value="${consentPath.replace(/&/g, '&amp;')}"`);
    const done = await person.request('/account/sign-in/code', {
      form: { _csrf: csrfOf(codeHtml), email, code: await latestCode(t, email), next: consentPath },
    });
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(consentPath);
    // An open redirect is not possible through next.
    const evil = await person.request('/account/sign-in?next=https://evil.example/');
    expect(evil.headers.get('location')).toBe('/account');
  });

  it('a redirect_uri that was not registered is never redirected to', async () => {
    const clientId = await newClient(t);
    const res = await t.request(
      `/oauth/authorize?${authorizeQuery(clientId, pkcePair().challenge, { redirect_uri: 'http://127.0.0.1:43210/other' })}`,
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('redirect_uri is not one this app registered');
  });

  it('before consent, every bad request is an error page on our origin, never a redirect (RFC 9700 §4.11)', async () => {
    const clientId = await newClient(t);
    const { challenge } = pkcePair();
    const cases: [URLSearchParams, string, string][] = [
      [
        authorizeQuery(clientId, challenge, { resource: 'https://other-server.example/mcp' }),
        'invalid_target',
        'resource must be http://tooldir.test/mcp',
      ],
      [authorizeQuery(clientId, challenge, { resource: `${RESOURCE}#x` }), 'invalid_target', 'resource must be'],
      [authorizeQuery(clientId, challenge, { code_challenge_method: 'plain' }), 'invalid_request', 'PKCE is required'],
      [authorizeQuery(clientId, challenge, { code_challenge: '' }), 'invalid_request', 'PKCE is required'],
      [
        authorizeQuery(clientId, challenge, { response_type: 'token' }),
        'unsupported_response_type',
        'response_type=code',
      ],
      [authorizeQuery(clientId, challenge, { scope: 'admin' }), 'invalid_scope', 'Unknown scope: admin'],
      [
        authorizeQuery(clientId, challenge, { state: 'x'.repeat(1001) }),
        'invalid_request',
        'state must be at most 1000 characters',
      ],
      [authorizeQuery('tdcl_' + 'A'.repeat(22), challenge), 'invalid_client', 'Unknown client_id'],
      [
        new URLSearchParams(`${authorizeQuery(clientId, challenge)}&state=again`),
        'invalid_request',
        'names state more than once',
      ],
    ];
    const noChallenge = authorizeQuery(clientId, challenge);
    noChallenge.delete('code_challenge');
    noChallenge.delete('code_challenge_method');
    cases.push([noChallenge, 'invalid_request', 'PKCE is required']);
    for (const [query, error, words] of cases) {
      const res = await t.request(`/oauth/authorize?${query}`);
      expect(res.status, error).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      const html = await res.text();
      expect(html).toContain(`<code id="oauth-error-code">${error}</code>`);
      expect(html).toContain(words);
      expect(html).not.toContain('127.0.0.1:43210');
      expect(res.headers.get('content-security-policy')!.split('; ')).toContain("form-action 'self'");
    }
  });

  it('the consent page checks again: a tampered form is an error page, not a redirect, and issues no code', async () => {
    const clientId = await newClient(t);
    const { person } = await signedInPerson(t);
    const query = authorizeQuery(clientId, pkcePair().challenge);
    const page = await person.page((await person.request(`/oauth/authorize?${query}`)).headers.get('location')!);
    const form: Record<string, string> = {
      _csrf: csrfOf(page.html),
      decision: 'allow',
      ...Object.fromEntries(query),
      resource: 'https://other-server.example/mcp',
    };
    const res = await person.request('/account/authorize', {
      form,
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.text()).toContain('<code id="oauth-error-code">invalid_target</code>');
  });

  it('state is optional: without it the code comes back without state; with it, unchanged', async () => {
    const clientId = await newClient(t);
    const { person } = await signedInPerson(t);
    const pkce = pkcePair();
    const query = authorizeQuery(clientId, pkce.challenge);
    query.delete('state');
    const { location } = await consent(t, person, query);
    expect([...location.searchParams.keys()].sort()).toEqual(['code', 'iss']);
    const { body } = await exchange(clientId, location.searchParams.get('code')!, pkce.verifier);
    expect(body.access_token).toMatch(/^tdat_/);
    const odd = 'a b&c=d/é?#%20';
    const again = await consent(t, person, authorizeQuery(clientId, pkcePair().challenge, { state: odd }));
    expect(again.location.searchParams.get('state')).toBe(odd);
    const denied = await consent(t, person, query, 'deny');
    expect(denied.location.searchParams.get('error')).toBe('access_denied');
    expect(denied.location.searchParams.has('state')).toBe(false);
  });

  it('resource is optional on both endpoints: absent means /mcp; an upper-case spelling of it is the same resource', async () => {
    const clientId = await newClient(t);
    const { person } = await signedInPerson(t);
    for (const [atAuthorize, atToken] of [
      [undefined, undefined],
      ['HTTP://TOOLDIR.TEST/mcp', undefined],
      [undefined, 'http://TOOLDIR.test:80/mcp'],
    ] as const) {
      const pkce = pkcePair();
      const query = authorizeQuery(clientId, pkce.challenge);
      if (atAuthorize === undefined) query.delete('resource');
      else query.set('resource', atAuthorize);
      const { location } = await consent(t, person, query);
      const form: Record<string, string> = {
        grant_type: 'authorization_code',
        client_id: clientId,
        code: location.searchParams.get('code')!,
        redirect_uri: REDIRECT,
        code_verifier: pkce.verifier,
      };
      if (atToken !== undefined) form.resource = atToken;
      const { res, body } = await tokenRequest(t, form);
      expect(res.status, `${atAuthorize} ${atToken}`).toBe(200);
      await expectSearchAnswered(body.access_token!);
      const refreshed = await tokenRequest(t, {
        grant_type: 'refresh_token',
        client_id: clientId,
        refresh_token: body.refresh_token!,
      });
      expect(refreshed.res.status).toBe(200);
      expect(refreshed.body.access_token).toMatch(/^tdat_[0-9A-Za-z]{32}$/);
      expect(refreshed.body.access_token).not.toBe(body.access_token);
      await expectSearchAnswered(refreshed.body.access_token!);
    }
  });

  it('deny returns access_denied with the state and issues nothing', async () => {
    const clientId = await newClient(t);
    const { person } = await signedInPerson(t);
    const { location } = await consent(t, person, authorizeQuery(clientId, pkcePair().challenge), 'deny');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('state-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('a consent form posted cross-site, or without the session token, is refused and issues no code', async () => {
    const clientId = await newClient(t);
    const { person } = await signedInPerson(t);
    const query = authorizeQuery(clientId, pkcePair().challenge);
    const consentPath = (await person.request(`/oauth/authorize?${query}`)).headers.get('location')!;
    const page = await person.page(consentPath);
    const form: Record<string, string> = { _csrf: csrfOf(page.html), decision: 'allow', ...Object.fromEntries(query) };
    const crossSite = await person.request('/account/authorize', {
      form,
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('location')).toBeNull();
    const noToken = await person.request('/account/authorize', { form: { ...form, _csrf: 'x'.repeat(32) } });
    expect(noToken.status).toBe(403);
  });
});

describe('code exchange', () => {
  it('issues an opaque access token for /mcp and a refresh token; the token works on /mcp', async () => {
    const { clientId, code, verifier } = await freshCode();
    const { res, body } = await exchange(clientId, code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      access_token: expect.stringMatching(/^tdat_[0-9A-Za-z]{32}$/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^tdrt_[0-9A-Za-z]{32}$/),
      scope: 'tools:read sites:read sites:submit',
    });
    await expectSearchAnswered(body.access_token!);
  });

  it('a wrong PKCE verifier is invalid_grant, and spends the code', async () => {
    const { clientId, code, verifier } = await freshCode();
    const wrong = await exchange(clientId, code, pkcePair().verifier);
    expect(wrong.res.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge of the authorization request.',
    });
    expect((await exchange(clientId, code, verifier)).body.error).toBe('invalid_grant');
  });

  it('a reused code is refused and revokes the tokens it produced', async () => {
    const { clientId, code, verifier } = await freshCode();
    const first = await exchange(clientId, code, verifier);
    expect(first.res.status).toBe(200);
    await expectSearchAnswered(first.body.access_token!);
    const again = await exchange(clientId, code, verifier);
    expect(again.res.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    const revoked = await mcpCall(t, first.body.access_token!, 'search_tools', {});
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await revoked.json()).toEqual({
      jsonrpc: '2.0',
      error: { code: -32001, message: expect.any(String) },
      id: null,
    });
  });

  it('two concurrent redemptions of one code: exactly one gets tokens', async () => {
    const { clientId, code, verifier } = await freshCode();
    const results = await Promise.all([exchange(clientId, code, verifier), exchange(clientId, code, verifier)]);
    expect(results.map((r) => r.res.status).sort()).toEqual([200, 400]);
  });

  it('an expired code (over 10 minutes) is refused', async () => {
    const { clientId, code, verifier } = await freshCode();
    clock = new Date(Date.now() + 11 * 60_000);
    try {
      const late = await exchange(clientId, code, verifier);
      expect(late.body).toEqual({
        error: 'invalid_grant',
        error_description: 'The authorization code has expired (codes live 10 minutes).',
      });
    } finally {
      clock = new Date();
    }
  });

  it('a mismatched redirect_uri, another client or another resource is refused', async () => {
    const a = await freshCode();
    expect(
      (await exchange(a.clientId, a.code, a.verifier, { redirect_uri: 'http://127.0.0.1:43210/other' })).body.error,
    ).toBe('invalid_grant');
    const b = await freshCode();
    expect((await exchange(await newClient(t), b.code, b.verifier)).body.error).toBe('invalid_grant');
    const c = await freshCode();
    expect(
      (await exchange(c.clientId, c.code, c.verifier, { resource: 'https://other-server.example/mcp' })).body.error,
    ).toBe('invalid_target');
  });

  it('malformed requests get RFC 6749 errors, never a 5xx', async () => {
    expect((await tokenRequest(t, { client_id: 'x' })).body.error).toBe('invalid_request');
    expect((await tokenRequest(t, { grant_type: 'password', client_id: 'x' })).body.error).toBe(
      'unsupported_grant_type',
    );
    expect(
      (
        await tokenRequest(t, {
          grant_type: 'authorization_code',
          client_id: 'x',
          code: 'nope',
          redirect_uri: REDIRECT,
          code_verifier: 'short',
        })
      ).body.error,
    ).toBe('invalid_request');
    // invalid_client is a 401, and every 401 names a scheme (RFC 9110 §15.5.2; RFC 6749 §5.2: the one the client tried).
    const secret = await tokenRequest(t, { grant_type: 'authorization_code', client_id: 'x', client_secret: 's' });
    expect(secret.res.status).toBe(401);
    expect(secret.body.error).toBe('invalid_client');
    expect(secret.res.headers.get('www-authenticate')).toBe('Basic realm="tooldir"');
    const basic = await t.app.request(`${ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${btoa('x:s')}` },
      body: 'grant_type=authorization_code&client_id=x',
    });
    expect(basic.status).toBe(401);
    expect(basic.headers.get('www-authenticate')).toBe('Basic realm="tooldir"');
    const bearer = await t.app.request(`${ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'Bearer abc' },
      body: 'grant_type=refresh_token&client_id=x',
    });
    expect(bearer.headers.get('www-authenticate')).toBe('Bearer realm="tooldir"');
    expect(((await bearer.json()) as any).error).toBe('invalid_client');
    const target = await tokenRequest(t, {
      grant_type: 'refresh_token',
      client_id: 'x',
      refresh_token: 'y',
      resource: 'https://other-server.example/mcp',
    });
    expect(target.res.status).toBe(400);
    expect(target.body).toEqual({
      error: 'invalid_target',
      error_description: 'resource must be http://tooldir.test/mcp, the only resource this server issues tokens for.',
    });
    expect(target.res.headers.get('www-authenticate')).toBeNull();
    const json = await t.app.request(`${ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(((await json.json()) as any).error).toBe('invalid_request');
    const twice = await t.app.request(`${ORIGIN}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=a&client_id=b',
    });
    expect(((await twice.json()) as any).error).toBe('invalid_request');
  });
});
