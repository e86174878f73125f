// Discovery (RFC 9728, RFC 8414) and the 401/403 answers of POST /mcp that start an MCP client's OAuth flow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGIN, RESOURCE, connectedApp, createOAuthTestApp, mcpCall, type OAuthTestApp } from './oauth-harness';
import { ADMIN_TOKEN, uniqueName, uniqueUrl } from '../../helpers/test-app';
import { findWebSession } from '../../../src/accounts/web-sessions';
import { rateLimitPolicies } from '../../../src/rate-limits/policies';

let t: OAuthTestApp;
beforeAll(async () => {
  t = await createOAuthTestApp();
});
afterAll(async () => {
  expect(t.network.violations).toEqual([]);
  await t.close();
});

const RESOURCE_METADATA = `${ORIGIN}/.well-known/oauth-protected-resource/mcp`;

/** A refused MCP call: a JSON-RPC error (no id: the request was not read) whose message says why. */
const expectRefusal = async (res: Response, message: RegExp) =>
  expect(await res.json()).toEqual({
    jsonrpc: '2.0',
    error: { code: -32001, message: expect.stringMatching(message) },
    id: null,
  });
/** search_tools answered: the page of tools, not an error result. */
const expectSearchResult = async (res: Response) => {
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    result: { isError?: boolean; structuredContent: { tools: unknown[]; next_cursor: unknown } };
  };
  expect(body.result.isError).toBeUndefined();
  expect(body.result.structuredContent).toEqual({
    tools: expect.any(Array),
    next_cursor: expect.toBeOneOf([null, expect.any(String)]),
  });
};

describe('discovery documents', () => {
  it('protected resource metadata names /mcp, our authorization server and the scopes', async () => {
    const res = await t.request('/.well-known/oauth-protected-resource/mcp');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(await res.json()).toEqual({
      resource: RESOURCE,
      authorization_servers: [ORIGIN],
      scopes_supported: ['tools:read', 'sites:read', 'sites:submit'],
      bearer_methods_supported: ['header'],
      resource_name: 'tooldir – AI tool directory',
      resource_documentation: `${ORIGIN}/llms.txt`,
    });
  });

  it('authorization server metadata: code + PKCE S256, public clients, DCR and metadata documents', async () => {
    const res = await t.request('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
      revocation_endpoint: `${ORIGIN}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      client_id_metadata_document_supported: true,
    });
  });

  it('llms.txt tells agents about the OAuth URL', async () => {
    expect(await (await t.request('/llms.txt')).text()).toContain(`${RESOURCE} (discovery: ${RESOURCE_METADATA})`);
  });

  it('derives every URL from SITE_ORIGIN, never from the Host header', async () => {
    const res = await t.app.request('http://evil.example/.well-known/oauth-authorization-server', {
      headers: { host: 'evil.example' },
    });
    expect(((await res.json()) as any).issuer).toBe(ORIGIN);
  });
});

describe('POST /mcp as a protected resource', () => {
  it('without a token: 401 with resource_metadata, the scopes to ask for, and no error code (RFC 6750 §3.1)', async () => {
    const res = await mcpCall(t, undefined, 'search_tools', {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${RESOURCE_METADATA}", scope="tools:read sites:read sites:submit"`,
    );
    await expectRefusal(res, /needs an OAuth access token or an API key/);
  });

  it('an unknown, malformed or URL-borne token: 401 invalid_token / invalid_request', async () => {
    for (const token of ['tdat_' + 'x'.repeat(32), 'garbage', 'tdk_' + 'A'.repeat(22)]) {
      const res = await mcpCall(t, token, 'search_tools', {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(
        new RegExp(
          `^Bearer resource_metadata="${RESOURCE_METADATA}", scope="tools:read sites:read sites:submit", error="invalid_token", error_description="`,
        ),
      );
      await expectRefusal(res, /\S/);
    }
    const inUrl = await mcpCall(t, undefined, 'search_tools', {}, '/mcp?access_token=abc');
    expect(inUrl.status).toBe(401);
    expect(inUrl.headers.get('www-authenticate')).toContain('error="invalid_request"');
    await expectRefusal(inUrl, /\S/);
  });

  it('an API key works unchanged', async () => {
    const { key } = await t.member();
    await expectSearchResult(await mcpCall(t, key, 'search_tools', {}));
  });

  it('a token without the scope a tool needs: 403 insufficient_scope naming it', async () => {
    const { tokens } = await connectedApp(t, 'tools:read');
    expect(tokens.scope).toBe('tools:read');
    await expectSearchResult(await mcpCall(t, tokens.access_token, 'search_tools', { query: 'x' }));
    const res = await mcpCall(t, tokens.access_token, 'submit_site', {
      name: 'Some Tool',
      url: 'https://some-tool.example',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="tools:read sites:submit"/);
    await expectRefusal(res, /lacks the scope sites:submit/);
    const status = await mcpCall(t, tokens.access_token, 'get_site_status', { url: 'https://some-tool.example' });
    expect(status.status).toBe(403);
    expect(status.headers.get('www-authenticate')).toContain('scope="tools:read sites:read"');
    await expectRefusal(status, /lacks the scope sites:read/);
  });

  it("an OAuth token's tool calls share the account's rate-limit buckets with its API keys", async () => {
    const { tokens, person } = await connectedApp(t);
    const accountId = (await findWebSession(t.deps, person.cookies.get('tooldir_session')))!.accountId;
    const created = await t.request(`/api/v1/admin/accounts/${accountId}/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const { key } = (await created.json()) as { key: string };
    const submit = async (credential: string, path: string) => {
      const res = await mcpCall(t, credential, 'submit_site', { name: uniqueName(), url: uniqueUrl() }, path);
      return (
        (await res.json()) as { result: { structuredContent?: { status?: string }; content: { text: string }[] } }
      ).result;
    };
    for (let i = 0; i < rateLimitPolicies.submit.limit; i++)
      expect((await submit(key, '/api/mcp/mcp')).structuredContent?.status).toBe('pending_payment');
    const limited = await submit(tokens.access_token, '/mcp');
    expect(JSON.parse(limited.content[0]!.text).error.code).toBe('rate_limited');
  });

  it('/api/mcp/mcp keeps its contract: public tools without a key', async () => {
    await expectSearchResult(await mcpCall(t, undefined, 'search_tools', {}, '/api/mcp/mcp'));
  });
});
