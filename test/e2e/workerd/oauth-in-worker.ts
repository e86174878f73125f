// The OAuth authorization server and the protected /mcp answered from inside workerd (worker-bundle.test.ts):
// no nodejs_compat, the Neon HTTP driver, Upstash limits and the mail API stand-in, as in production.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ProductionStack } from '../../helpers/standins/production-stack';
import type { WranglerDev } from './wrangler-dev';

const REDIRECT = 'http://127.0.0.1:9/callback'; // never opened: the test reads the Location header

/** A cookie jar of one: enough for the account pages (no domains, no expiry handling). */
function jar() {
  const cookies = new Map<string, string>();
  return {
    header: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    take(res: Response) {
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const i = pair!.indexOf('=');
        if (/max-age=0/i.test(line) || i === pair!.length - 1) cookies.delete(pair!.slice(0, i));
        else cookies.set(pair!.slice(0, i), pair!.slice(i + 1));
      }
    },
  };
}

export async function exerciseOAuth(worker: WranglerDev, stack: ProductionStack): Promise<void> {
  const base = worker.url;
  const resourceMetadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
  expect(resourceMetadata.status, worker.output()).toBe(200);
  expect(await resourceMetadata.json()).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
  const asMetadata = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<
    string,
    unknown
  >;
  expect(asMetadata).toMatchObject({
    issuer: base,
    token_endpoint: `${base}/oauth/token`,
    code_challenge_methods_supported: ['S256'],
  });

  const unauthenticated = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(unauthenticated.status).toBe(401);
  expect(unauthenticated.headers.get('www-authenticate')).toBe(
    `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="tools:read sites:read sites:submit"`,
  );

  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Workerd Host', redirect_uris: [REDIRECT] }),
  });
  expect(registered.status, worker.output()).toBe(201);
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const refusedRedirect = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://app.example/cb'] }),
  });
  expect(((await refusedRedirect.json()) as { error: string }).error).toBe('invalid_redirect_uri');

  // The person: sign in with the code mailed through the mail API stand-in, returning to the consent page.
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 's1',
    resource: `${base}/mcp`,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    scope: 'tools:read sites:submit',
  });
  const authorize = await fetch(`${base}/oauth/authorize?${query}`, { redirect: 'manual' });
  expect(authorize.status, worker.output()).toBe(302);
  const consentPath = authorize.headers.get('location')!;
  const cookies = jar();
  const form = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: cookies.header(), origin: base, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    }).then((res) => (cookies.take(res), res));
  const signInPage = await fetch(`${base}/account/sign-in?next=${encodeURIComponent(consentPath)}`);
  cookies.take(signInPage);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await signInPage.text())![1]!;
  const email = `oauth-workerd-${crypto.randomUUID().slice(0, 8)}@example.com`;
  expect((await form('/account/sign-in', { _csrf: csrf, email, next: consentPath })).status).toBe(200);
  const code = /\b(\d{6})\b/.exec((await stack.mail.waitFor((m) => m.to === email)).text)![1]!;
  const signedIn = await form('/account/sign-in/code', { _csrf: csrf, email, code, next: consentPath });
  expect(signedIn.headers.get('location'), worker.output()).toBe(consentPath);
  const consentPage = await fetch(`${base}${consentPath}`, { headers: { cookie: cookies.header() } });
  const consentHtml = await consentPage.text();
  expect(consentHtml).toContain('Workerd Host');
  const sessionCsrf = /name="_csrf" value="([^"]+)"/.exec(consentHtml)![1]!;
  const allowed = await form('/account/authorize', {
    _csrf: sessionCsrf,
    decision: 'allow',
    ...Object.fromEntries(query),
  });
  const back = new URL(allowed.headers.get('location')!);
  expect(back.searchParams.get('state')).toBe('s1');

  const token = (fields: Record<string, string>) =>
    fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, ...fields }),
    });
  const exchanged = await token({
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    resource: `${base}/mcp`,
  });
  expect(exchanged.status, worker.output()).toBe(200);
  const tokens = (await exchanged.json()) as { access_token: string; refresh_token: string; scope: string };
  expect(tokens.scope).toBe('tools:read sites:submit');

  const mcp = (accessToken: string) =>
    fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessToken}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_tools', arguments: {} },
      }),
    });
  expect((await mcp(tokens.access_token)).status, worker.output()).toBe(200);

  const rotated = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
  expect(rotated.status).toBe(200);
  const next = (await rotated.json()) as { access_token: string };
  const reused = await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
  expect(((await reused.json()) as { error: string }).error).toBe('invalid_grant');
  expect((await mcp(next.access_token)).status).toBe(401);
}
