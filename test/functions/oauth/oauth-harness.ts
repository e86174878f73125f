// Drives the OAuth flow of functions/oauth and the consent page through app.request, as a client and a person
// would: register, authorize, sign in, allow, exchange. No socket; the crawler's network is simulated.
import { expect } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { simulatedNetwork, type SimulatedNetwork, type SimulatedNetworkOptions } from '../../helpers/simulated-network';
import type { DepsOverrides } from '../../../src/deps';
import type { Env } from '../../../src/config';
import { PageClient, csrfOf, newEmail, uniqueIp } from '../pages/account-client';

export const ORIGIN = 'http://tooldir.test';
export const RESOURCE = `${ORIGIN}/mcp`;
export const REDIRECT = 'http://127.0.0.1:43210/callback';

export interface OAuthTestApp extends TestApp {
  network: SimulatedNetwork;
}

/** A test app whose crawler (and so the metadata-document fetch) can reach only the simulated hosts. */
export async function createOAuthTestApp(
  options: Partial<SimulatedNetworkOptions> & { overrides?: DepsOverrides; env?: Env } = {},
): Promise<OAuthTestApp> {
  const network = simulatedNetwork({ dns: options.dns ?? {}, pages: options.pages, timeoutMs: options.timeoutMs });
  const t = await createTestApp({ env: options.env, overrides: { crawl: network, ...options.overrides } });
  return Object.assign(t, { network });
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** POST a JSON body from a given client IP. */
export async function registerClient(t: TestApp, metadata: unknown, ip = uniqueIp()) {
  const res = await t.app.request(`${ORIGIN}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: JSON.stringify(metadata),
  });
  return { res, body: (await res.json()) as Record<string, unknown> };
}

export async function newClient(t: TestApp, redirectUris = [REDIRECT]): Promise<string> {
  const { res, body } = await registerClient(t, { client_name: 'Test Assistant', redirect_uris: redirectUris });
  expect(res.status).toBe(201);
  return body.client_id as string;
}

export function authorizeQuery(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 'state-123',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: RESOURCE,
    scope: 'tools:read sites:read sites:submit',
    ...extra,
  });
}

/** A signed-in person (a fresh account) in a cookie-keeping page client. */
export async function signedInPerson(t: TestApp) {
  const person = new PageClient(t, uniqueIp());
  const email = newEmail();
  await person.signIn(email);
  return { person, email };
}

/** GET /oauth/authorize → consent page → Allow; returns the redirect back to the client, parsed. */
export async function consent(
  t: TestApp,
  person: PageClient,
  query: URLSearchParams,
  decision: 'allow' | 'deny' = 'allow',
) {
  const first = await person.request(`/oauth/authorize?${query}`);
  expect(first.status).toBe(302);
  const consentPath = first.headers.get('location')!;
  expect(consentPath.startsWith('/account/authorize?')).toBe(true);
  const page = await person.page(consentPath);
  expect(page.res.status).toBe(200);
  const form: Record<string, string> = { _csrf: csrfOf(page.html), decision };
  for (const [name, value] of query) form[name] = value;
  const res = await person.request('/account/authorize', {
    form,
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
  });
  expect(res.status).toBe(303);
  return { html: page.html, location: new URL(res.headers.get('location')!) };
}

export async function tokenRequest(t: TestApp, form: Record<string, string>, ip = uniqueIp()) {
  const res = await t.app.request(`${ORIGIN}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'cf-connecting-ip': ip },
    body: new URLSearchParams(form).toString(),
  });
  return { res, body: (await res.json()) as Record<string, string> };
}

/** Register, consent and exchange: a fresh grant with its tokens. */
export async function connectedApp(t: TestApp, scope = 'tools:read sites:read sites:submit') {
  const clientId = await newClient(t);
  const { person, email } = await signedInPerson(t);
  const { verifier, challenge } = pkcePair();
  const { location } = await consent(t, person, authorizeQuery(clientId, challenge, { scope }));
  const code = location.searchParams.get('code')!;
  const { res, body } = await tokenRequest(t, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: RESOURCE,
  });
  expect(res.status).toBe(200);
  return { clientId, person, email, tokens: body as { access_token: string; refresh_token: string; scope: string } };
}

/** A JSON-RPC tools/call on POST /mcp with a bearer token. */
export function mcpCall(
  t: TestApp,
  token: string | undefined,
  name: string,
  args: Record<string, unknown>,
  path = '/mcp',
) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'cf-connecting-ip': uniqueIp(),
  };
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return t.app.request(`${ORIGIN}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
}
