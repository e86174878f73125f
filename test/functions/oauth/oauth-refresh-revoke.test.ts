// Refresh rotation, revocation (RFC 7009, /account, operator) and audience binding of access tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, ADMIN_TOKEN, type TestApp } from '../../helpers/test-app';
import { simulatedNetwork } from '../../helpers/simulated-network';
import {
  ORIGIN,
  connectedApp,
  createOAuthTestApp,
  mcpCall,
  newClient,
  tokenRequest,
  type OAuthTestApp,
} from './oauth-harness';
import { csrfOf } from '../pages/account-client';
import { findWebSession } from '../../../src/accounts/web-sessions';

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

describe('refresh and revocation', () => {
  const refresh = (clientId: string, token: string) =>
    tokenRequest(t, { grant_type: 'refresh_token', client_id: clientId, refresh_token: token });

  it('rotates on every use; a reused refresh token revokes the whole family', async () => {
    const { clientId, tokens } = await connectedApp(t);
    const r1 = await refresh(clientId, tokens.refresh_token);
    expect(r1.res.status).toBe(200);
    expect(r1.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await mcpCall(t, r1.body.access_token!, 'search_tools', {})).status).toBe(200);
    const reused = await refresh(clientId, tokens.refresh_token);
    expect(reused.body.error).toBe('invalid_grant');
    expect(reused.body.error_description).toContain('already used');
    // The family: the newest access and refresh tokens are dead too.
    expect((await mcpCall(t, r1.body.access_token!, 'search_tools', {})).status).toBe(401);
    expect((await refresh(clientId, r1.body.refresh_token!)).body.error).toBe('invalid_grant');
  });

  it('a refresh token of another client is refused and stays usable by its own client', async () => {
    const { clientId, tokens } = await connectedApp(t);
    expect((await refresh(await newClient(t), tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await refresh(clientId, tokens.refresh_token)).res.status).toBe(200);
  });

  it('an access token expires after an hour', async () => {
    const { tokens } = await connectedApp(t);
    clock = new Date(Date.now() + 61 * 60_000);
    try {
      const res = await mcpCall(t, tokens.access_token, 'search_tools', {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    } finally {
      clock = new Date();
    }
  });

  it('RFC 7009: revoking the refresh token ends the grant; unknown tokens answer 200', async () => {
    const { clientId, tokens } = await connectedApp(t);
    const revoke = (form: Record<string, string>) =>
      t.app.request(`${ORIGIN}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
    expect((await revoke({ client_id: clientId, token: 'tdrt_' + 'x'.repeat(32) })).status).toBe(200);
    const other = await revoke({ client_id: await newClient(t), token: tokens.refresh_token });
    expect(other.status).toBe(400);
    expect(((await other.json()) as any).error).toBe('unauthorized_client');
    expect((await mcpCall(t, tokens.access_token, 'search_tools', {})).status).toBe(200);
    expect(
      (await revoke({ client_id: clientId, token: tokens.refresh_token, token_type_hint: 'refresh_token' })).status,
    ).toBe(200);
    expect((await mcpCall(t, tokens.access_token, 'search_tools', {})).status).toBe(401);
  });

  it('/account lists the connected app; Revoke there takes effect on the next call', async () => {
    const { person, tokens } = await connectedApp(t);
    const { html } = await person.page('/account');
    expect(html).toContain('Connected apps');
    expect(html).toContain('Test Assistant');
    const grantId = /data-grant-id="([^"]+)"/.exec(html)![1]!;
    const res = await person.request(`/account/apps/${grantId}/revoke`, {
      form: { _csrf: csrfOf(html) },
      headers: { origin: ORIGIN },
    });
    expect(res.status).toBe(303);
    expect((await mcpCall(t, tokens.access_token, 'search_tools', {})).status).toBe(401);
    expect((await person.page('/account')).html).toContain('No app is connected');
  });

  it('the operator lists and revokes an account grant', async () => {
    const { tokens, person } = await connectedApp(t);
    const accountId = (await findWebSession(t.deps, person.cookies.get('tooldir_session')))!.accountId;
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const list = await t.request(`/api/v1/admin/accounts/${accountId}/oauth-grants`, { headers: auth });
    expect(list.status).toBe(200);
    const { grants } = await list.json();
    expect(grants).toEqual([
      expect.objectContaining({
        client_name: 'Test Assistant',
        scopes: ['tools:read', 'sites:read', 'sites:submit'],
        revoked_at: null,
      }),
    ]);
    const del = await t.request(`/api/v1/admin/accounts/${accountId}/oauth-grants/${grants[0].grant_id}`, {
      method: 'DELETE',
      headers: auth,
    });
    expect(del.status).toBe(204);
    expect((await mcpCall(t, tokens.access_token, 'search_tools', {})).status).toBe(401);
    expect((await t.request(`/api/v1/admin/accounts/${accountId}/oauth-grants`)).status).toBe(401);
    expect(
      (
        await t.request(`/api/v1/admin/accounts/${crypto.randomUUID()}/oauth-grants/${grants[0].grant_id}`, {
          method: 'DELETE',
          headers: auth,
        })
      ).status,
    ).toBe(404);
  });
});

describe('audience', () => {
  let other: TestApp;
  beforeAll(async () => {
    // The same database behind another origin: a token minted for tooldir.test/mcp is presented to other.test/mcp.
    other = await createTestApp({
      env: { SITE_ORIGIN: 'http://other.test' },
      db: { db: t.deps.db, close: async () => {} } as never,
      overrides: { crawl: simulatedNetwork({ dns: {} }) },
    });
  });

  it('a token minted for another resource is refused', async () => {
    const { tokens } = await connectedApp(t);
    const res = await other.app.request('http://other.test/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
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
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      'resource_metadata="http://other.test/.well-known/oauth-protected-resource/mcp", scope="tools:read sites:read sites:submit", error="invalid_token"',
    );
    expect((await mcpCall(t, tokens.access_token, 'search_tools', {})).status).toBe(200);
  });
});
