// The paths real hosts take (issue 21), against the real Node server with clients nobody here wrote: the MCP
// SDK's authProvider and oauth4webapi, each with Cursor's private-use redirect and neither `state` nor
// `resource`; the person consents in Chromium. Then a page on another origin calls /mcp with fetch (CORS).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import * as oauth from 'oauth4webapi';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { mailedCodeFor } from '../../helpers/mailed-code';
import { startLoopbackBrowser, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { simulatedNetwork } from '../../helpers/simulated-network';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');
const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/;
const CURSOR_REDIRECT = 'cursor://anysphere.cursor-retrieval/oauth/callback';
const ALL_SCOPES = 'tools:read sites:read sites:submit';

/** A host like Cursor: a private-use redirect, no `state`, and (validateResourceURL → undefined) no `resource`. */
class CursorLikeProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  readonly redirectUrl = CURSOR_REDIRECT;
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Cursor-like Host',
      redirect_uris: [CURSOR_REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation = () => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.client = info);
  tokens = () => this.stored;
  saveTokens = (tokens: OAuthTokens) => void (this.stored = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier!;
  validateResourceURL = async () => undefined;
}

describeBrowser('real hosts connect by URL (issue 21)', () => {
  let server: NodeServer;
  let otherOrigin: Server;
  let otherOriginUrl: string;
  let chromium: LoopbackBrowser;
  let context: BrowserContext;
  let dataDir: string;
  /** Requests the MCP clients' fetch tried to send elsewhere (refused). */
  const offLoopback: string[] = [];
  /** What each client sent to the token endpoint, to show `resource` was really absent. */
  const tokenRequests: URLSearchParams[] = [];
  const crawl = simulatedNetwork({ dns: {} });

  /** The clients' fetch: loopback only, and a record of token requests. */
  const loopbackFetch: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!LOOPBACK.test(url.hostname)) {
      offLoopback.push(url.href);
      throw new Error(`off loopback: ${url.href}`);
    }
    if (url.pathname === '/oauth/token') tokenRequests.push(new URLSearchParams(String(init?.body ?? '')));
    return fetch(input, init);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-oauth-hosts-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      { overrides: { crawl } },
    );
    // Another origin (another loopback port) serving a blank page for the CORS test.
    otherOrigin = createServer(
      (_req, res) =>
        void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>'),
    );
    await new Promise<void>((resolve) => otherOrigin.listen(0, '127.0.0.1', resolve));
    otherOriginUrl = `http://127.0.0.1:${(otherOrigin.address() as { port: number }).port}`;
    chromium = await startLoopbackBrowser();
    context = await chromium.newContext();
  });

  /** A tab of the shared context (one signed-in person); any CSP violation it logs fails the suite. */
  const openTab = (): Promise<Page> => context.newPage();

  afterAll(async () => {
    await chromium?.close();
    await new Promise((resolve) => otherOrigin?.close(resolve));
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /**
   * The person at the authorization URL: signs in if the browser is not yet, checks the consent page, allows.
   * Chromium hands a cursor:// URL to the operating system and aborts the navigation, so no page event reports
   * it: the DevTools protocol shows the redirect Chromium followed (after its CSP form-action check, whose
   * refusal would be logged to the console and fail the suite).
   */
  async function allowInBrowser(authorizationUrl: URL, clientName: string): Promise<URL> {
    // A tab per authorization: after Chromium handed one cursor:// URL to the system, its tab submits no form again.
    const page = await openTab();
    await page.goto(authorizationUrl.href);
    if (new URL(page.url()).pathname === '/account/sign-in') {
      const email = `hosts-${crypto.randomUUID().slice(0, 8)}@example.com`;
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Send code' }).click();
      await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);
      await page.getByLabel('Code').fill(await mailedCodeFor(server.deps.db, email, page));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/account\/authorize\?/);
    }
    expect(await page.locator('#client-name bdi').textContent()).toBe(clientName);
    expect(await page.locator('#redirect-host').textContent()).toBe('cursor://anysphere.cursor-retrieval');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const redirected = new Promise<{ url: string; from: string | undefined; status: number | undefined }>((resolve) =>
      cdp.on('Network.requestWillBeSent', (event) => {
        if (event.request.url.startsWith('cursor:'))
          resolve({
            url: event.request.url,
            from: event.redirectResponse?.url,
            status: event.redirectResponse?.status,
          });
      }),
    );
    await page.getByRole('button', { name: 'Allow' }).click({ noWaitAfter: true });
    const followed = await redirected;
    await page.close();
    expect(followed).toMatchObject({ from: `${server.url}/account/authorize`, status: 303 });
    return new URL(followed.url);
  }

  it('the MCP SDK authProvider: cursor:// redirect, no state, no resource, scopes from the 401', async () => {
    const provider = new CursorLikeProvider();
    const first = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      authProvider: provider,
      fetch: loopbackFetch,
    });
    await expect(new Client({ name: 'cursor-like', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect((provider.client as { redirect_uris?: string[] }).redirect_uris).toEqual([CURSOR_REDIRECT]);
    const asked = provider.authorizationUrl!;
    expect(asked.searchParams.has('state')).toBe(false);
    expect(asked.searchParams.has('resource')).toBe(false);
    expect(asked.searchParams.get('scope')).toBe(ALL_SCOPES); // the 401's scope="…" (MCP 2025-11-25 scope selection)

    const back = await allowInBrowser(asked, 'Cursor-like Host');
    expect(back.href.startsWith(`${CURSOR_REDIRECT}?code=tdac_`)).toBe(true);
    expect([...back.searchParams.keys()].sort()).toEqual(['code', 'iss']);
    await first.finishAuth(back.searchParams.get('code')!);
    expect(tokenRequests.at(-1)!.has('resource')).toBe(false);
    expect(provider.stored?.scope).toBe(ALL_SCOPES);

    const client = new Client({ name: 'cursor-like', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { authProvider: provider, fetch: loopbackFetch }),
    );
    const found = (await client.callTool({ name: 'search_tools', arguments: { query: 'anything' } })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: Unknown tool: no_such_tool\./,
    );
    await client.close();
  });

  it('oauth4webapi: discovery, registration, cursor:// redirect without state or resource, code, refresh, revocation', async () => {
    const options = { [oauth.allowInsecureRequests]: true, [oauth.customFetch]: loopbackFetch }; // http: loopback only
    const issuer = new URL(server.url);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...options, algorithm: 'oauth2' }),
    );
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(
        as,
        { client_name: 'oauth4webapi Host', redirect_uris: [CURSOR_REDIRECT], token_endpoint_auth_method: 'none' },
        options,
      ),
    );
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: 'none' };

    const verifier = oauth.generateRandomCodeVerifier();
    const authorizationUrl = new URL(as.authorization_endpoint!);
    for (const [name, value] of Object.entries({
      client_id: client.client_id,
      redirect_uri: CURSOR_REDIRECT,
      response_type: 'code',
      scope: 'tools:read sites:read',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })) {
      authorizationUrl.searchParams.set(name, value);
    }
    const back = await allowInBrowser(authorizationUrl, 'oauth4webapi Host');
    // Checks iss (RFC 9207) against the discovered issuer, and that no state came back when none was sent.
    const params = oauth.validateAuthResponse(as, client, back, oauth.expectNoState);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CURSOR_REDIRECT, verifier, options),
    );
    expect(tokenRequests.at(-1)!.has('resource')).toBe(false);
    expect(tokens.scope).toBe('tools:read sites:read');

    const mcp = (token: string) =>
      loopbackFetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
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
    expect((await mcp(tokens.access_token)).status).toBe(200);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options),
    );
    expect((await mcp(refreshed.access_token)).status).toBe(200);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), refreshed.refresh_token!, options),
    );
    expect((await mcp(refreshed.access_token)).status).toBe(401);

    // A client that tries a secret gets a 401 whose challenge the library reads (RFC 6749 §5.2, RFC 9110 §15.5.2).
    const withSecret = oauth.refreshTokenGrantRequest(
      as,
      { client_id: client.client_id },
      oauth.ClientSecretBasic('s'),
      tokens.refresh_token!,
      options,
    );
    const refused = await oauth
      .processRefreshTokenResponse(as, client, await withSecret)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
    expect((refused as oauth.WWWAuthenticateChallengeError).response.status).toBe(401);
    expect((refused as oauth.WWWAuthenticateChallengeError).cause[0]).toMatchObject({
      scheme: 'basic',
      parameters: { realm: 'tooldir' },
    });
  });

  it('a page on another origin calls /mcp with fetch and reads the 401, its WWW-Authenticate, and the discovery it points to', async () => {
    const page = await openTab();
    await page.goto(`${otherOriginUrl}/`);
    const seen = await page.evaluate(async (base) => {
      const mcp = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '0' } },
        }),
      });
      const challenge = mcp.headers.get('www-authenticate') ?? '';
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
      const metadata = (await (await fetch(metadataUrl)).json()) as { authorization_servers: string[] };
      const asMetadata = (await (
        await fetch(`${metadata.authorization_servers[0]}/.well-known/oauth-authorization-server`)
      ).json()) as { registration_endpoint: string };
      const registered = await fetch(asMetadata.registration_endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Web Host',
          redirect_uris: [`${location.origin}/callback`.replace('http://', 'https://')],
        }),
      });
      return { origin: location.origin, status: mcp.status, challenge, registered: registered.status };
    }, server.url);
    expect(seen.origin).toBe(otherOriginUrl);
    expect(seen.origin).not.toBe(server.url);
    expect(seen.status).toBe(401);
    expect(seen.challenge).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource/mcp", scope="${ALL_SCOPES}"`,
    );
    expect(seen.registered).toBe(201);
  });

  afterAll(() => {
    expect(offLoopback).toEqual([]);
    expect(chromium.offLoopback).toEqual([]);
    expect(chromium.cspViolations).toEqual([]);
    expect(crawl.violations).toEqual([]);
  });
});
