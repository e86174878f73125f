// Browser-based clients: the endpoints an MCP client on any web origin calls answer CORS (any origin, never
// credentials), and their DNS-rebinding defence is the Host check. Pages with cookies stay same-origin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, REDIRECT, createOAuthTestApp, newClient, type OAuthTestApp } from './oauth-harness';
import { uniqueIp } from '../pages/account-client';

let t: OAuthTestApp;
beforeAll(async () => {
  t = await createOAuthTestApp();
});
afterAll(async () => {
  expect(t.network.violations).toEqual([]);
  await t.close();
});

const ELSEWHERE = 'https://app.elsewhere.example';
const OPEN_PATHS = [
  '/mcp',
  '/api/mcp/mcp',
  '/.well-known/oauth-protected-resource/mcp',
  '/.well-known/oauth-authorization-server',
  '/oauth/register',
  '/oauth/token',
  '/oauth/revoke',
];
const REQUEST_HEADERS = 'authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id';

const preflight = (path: string, host = ORIGIN) =>
  t.app.request(`${host}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin: ELSEWHERE,
      'access-control-request-method': 'POST',
      'access-control-request-headers': REQUEST_HEADERS,
      'cf-connecting-ip': uniqueIp(),
    },
  });

const listOf = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

describe('CORS preflights', () => {
  it('every open endpoint allows any origin, the MCP and OAuth headers, and no credentials', async () => {
    for (const path of OPEN_PATHS) {
      const res = await preflight(path);
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(res.headers.get('access-control-allow-credentials'), path).toBeNull();
      expect(listOf(res.headers.get('access-control-allow-methods')), path).toEqual(
        expect.arrayContaining(['get', 'post']),
      );
      expect(listOf(res.headers.get('access-control-allow-headers')), path).toEqual(
        expect.arrayContaining(REQUEST_HEADERS.split(', ')),
      );
    }
  });

  it('a preflight addressed to another host is refused, without CORS headers', async () => {
    for (const path of ['/mcp', '/api/mcp/mcp', '/oauth/register', '/oauth/token', '/oauth/revoke']) {
      const res = await preflight(path, 'http://evil.example');
      expect(res.status, path).toBe(403);
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  it('pages with cookies (the account area, the consent page, the authorization endpoint) answer no CORS', async () => {
    for (const path of ['/account', '/account/authorize', '/oauth/authorize', '/api/v1/sites']) {
      const res = await t.app.request(`${ORIGIN}${path}`, {
        headers: { origin: ELSEWHERE, 'cf-connecting-ip': uniqueIp() },
      });
      expect(res.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });
});

describe('CORS on the answers themselves', () => {
  const fromElsewhere = (
    path: string,
    init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ) =>
    t.app.request(`${ORIGIN}${path}`, {
      ...init,
      headers: { origin: ELSEWHERE, 'cf-connecting-ip': uniqueIp(), ...init.headers },
    });

  const expectOpen = (res: Response, what: string) => {
    expect(res.headers.get('access-control-allow-origin'), what).toBe('*');
    expect(res.headers.get('access-control-allow-credentials'), what).toBeNull();
    expect(listOf(res.headers.get('access-control-expose-headers')), what).toEqual([
      'www-authenticate',
      'mcp-session-id',
    ]);
  };

  it('the 401 of /mcp, with its WWW-Authenticate readable', async () => {
    const res = await fromElsewhere('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(401);
    expectOpen(res, '/mcp 401');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=".+", scope=".+"$/);
  });

  it('/api/mcp/mcp, both discovery documents, registration, token and revocation', async () => {
    const mcp = await fromElsewhere('/api/mcp/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"page","version":"0"}}}',
    });
    expect(mcp.status).toBe(200);
    expectOpen(mcp, '/api/mcp/mcp');
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-authorization-server']) {
      const res = await fromElsewhere(path);
      expect(res.status, path).toBe(200);
      expectOpen(res, path);
    }
    const registered = await fromElsewhere('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT] }),
    });
    expect(registered.status).toBe(201);
    expectOpen(registered, '/oauth/register');
    const clientId = await newClient(t);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const token = await fromElsewhere('/oauth/token', {
      method: 'POST',
      headers: form,
      body: `grant_type=refresh_token&client_id=${clientId}&refresh_token=x`,
    });
    expect(token.status).toBe(400);
    expectOpen(token, '/oauth/token');
    const refused = await fromElsewhere('/oauth/token', {
      method: 'POST',
      headers: form,
      body: `grant_type=refresh_token&client_id=${clientId}&client_secret=s`,
    });
    expect(refused.status).toBe(401);
    expectOpen(refused, '/oauth/token 401');
    const revoked = await fromElsewhere('/oauth/revoke', {
      method: 'POST',
      headers: form,
      body: `client_id=${clientId}&token=${'tdrt_' + 'x'.repeat(32)}`,
    });
    expect(revoked.status).toBe(200);
    expectOpen(revoked, '/oauth/revoke');
  });

  it('the OAuth endpoints refuse another Host; the discovery documents, which never reflect it, still answer', async () => {
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/revoke']) {
      const res = await t.app.request(`http://evil.example${path}`, {
        method: 'POST',
        headers: { origin: ELSEWHERE, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(res.status, path).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
    }
    const metadata = await t.app.request('http://evil.example/.well-known/oauth-authorization-server');
    expect(((await metadata.json()) as { issuer: string }).issuer).toBe(ORIGIN);
  });
});
