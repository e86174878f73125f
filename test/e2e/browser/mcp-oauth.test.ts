// An MCP host connecting by URL: the official MCP SDK client's OAuth support (StreamableHTTPClientTransport with
// an authProvider) against the real Node server, the person signing in and consenting in Chromium.
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
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
import { launchLoopbackChromium } from '../../helpers/services/chromium';
import { simulatedNetwork } from '../../helpers/simulated-network';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
const requireBrowser = process.env.REQUIRE_BROWSER === '1';

describe.runIf(!hasChromium && requireBrowser)('browser required', () => {
  it(`finds Chromium at ${CHROMIUM} (REQUIRE_BROWSER=1)`, () => expect(existsSync(CHROMIUM)).toBe(true));
});

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/;

/** What an MCP host keeps: the SDK calls these; the test reads them. Everything in memory. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier?: string;
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK Test Host',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state = () => 'sdk-state-42';
  clientInformation = () => this.client;
  saveClientInformation = (info: OAuthClientInformationMixed) => void (this.client = info);
  tokens = () => this.stored;
  saveTokens = (tokens: OAuthTokens) => void (this.stored = tokens);
  redirectToAuthorization = (url: URL) => void (this.authorizationUrl = url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier!;
}

describe.runIf(hasChromium)('MCP SDK client connects by URL with OAuth', () => {
  let server: NodeServer;
  let callback: Server;
  let callbackUrl: string;
  const callbacks: URL[] = [];
  let browser: Browser;
  let context: BrowserContext;
  let dataDir: string;
  const offLoopback: string[] = [];
  const sdkOffLoopback: string[] = [];
  const crawl = simulatedNetwork({ dns: {} });

  /** The SDK's fetch: loopback only (the network rule holds even if the client followed a bad URL). */
  const loopbackFetch: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (!LOOPBACK.test(url.hostname)) {
      sdkOffLoopback.push(url.href);
      return Promise.reject(new Error(`off loopback: ${url.href}`));
    }
    return fetch(input, init);
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-oauth-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      { overrides: { crawl } },
    );
    // The host's redirect endpoint (RFC 8252 loopback redirect): records what the browser brings back.
    callback = createServer((req, res) => {
      callbacks.push(new URL(req.url ?? '/', callbackUrl));
      res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as { port: number }).port}/callback`;
    browser = await launchLoopbackChromium(CHROMIUM);
    context = await browser.newContext();
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (LOOPBACK.test(url.hostname)) return route.continue();
      offLoopback.push(url.href);
      return route.abort();
    });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => callback?.close(resolve));
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const codeFor = (email: string, page: Page) => mailedCodeFor(server.deps.db, email, page);

  const connect = async (provider: MemoryProvider) => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      authProvider: provider,
      fetch: loopbackFetch,
    });
    const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await client.connect(transport);
    return { client, transport };
  };

  it('discovers, registers, gets consent in Chromium, exchanges, submits, refreshes, and is refused after Revoke on /account', async () => {
    const provider = new MemoryProvider(callbackUrl);

    // 1. Unauthenticated: the SDK follows the 401's resource_metadata, registers (DCR) and asks the host to open the browser.
    const first = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      authProvider: provider,
      fetch: loopbackFetch,
    });
    await expect(new Client({ name: 'sdk-oauth-test', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(provider.client?.client_id).toMatch(/^tdcl_/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.href.startsWith(`${server.url}/oauth/authorize?`)).toBe(true);
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.url}/mcp`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    // 2. The person: sign in with the mailed code, read the consent page, allow.
    const page = await context.newPage();
    const email = `oauth-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await page.goto(authorizationUrl.href);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => page.textContent('main')).toContain(`We sent a 6-digit code to ${email}`);
    await page.getByLabel('Code').fill(await codeFor(email, page));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/account\/authorize\?/);
    const consentText = (await page.textContent('main')) ?? '';
    expect(consentText).toContain('SDK Test Host');
    expect(consentText).toContain('unverified');
    expect(consentText).toContain(new URL(callbackUrl).host);
    expect(
      await page.locator('#scopes li').evaluateAll((items) => items.map((li) => li.getAttribute('data-scope'))),
    ).toEqual(['tools:read', 'sites:read', 'sites:submit']);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(new RegExp(`^${callbackUrl}\\?`));
    const back = callbacks.at(-1)!;
    expect(back.searchParams.get('state')).toBe('sdk-state-42');
    expect(back.searchParams.get('iss')).toBe(server.url);

    // 3. The host hands the code to the SDK, which exchanges it (PKCE verifier, resource) for tokens.
    await first.finishAuth(back.searchParams.get('code')!);
    expect(provider.stored?.access_token).toMatch(/^tdat_/);
    const issuedRefresh = provider.stored!.refresh_token;

    // 4. A submission through the OAuth connection: no membership, so a checkout link.
    const { client } = await connect(provider);
    const submitted = (await client.callTool({
      name: 'submit_site',
      arguments: { name: 'OAuth Tool', url: `https://oauth-${crypto.randomUUID().slice(0, 8)}.example` },
    })) as CallToolResult;
    expect(submitted.isError).toBeFalsy();
    expect(submitted.structuredContent).toMatchObject({
      status: 'pending_payment',
      checkout_url: expect.stringMatching(/^http/),
    });

    // 5. Refresh: the stored access token stops working (here: replaced), the SDK refreshes on the 401 and retries.
    provider.stored = { ...provider.stored!, access_token: `tdat_${'x'.repeat(32)}` };
    const { client: refreshed } = await connect(provider);
    const found = (await refreshed.callTool({
      name: 'search_tools',
      arguments: { query: 'anything' },
    })) as CallToolResult;
    expect(found.isError).toBeFalsy();
    expect(provider.stored.refresh_token).not.toBe(issuedRefresh);
    const accessAfterRefresh = provider.stored.access_token;

    // 6. The person revokes the app on /account; the very next call is refused.
    await page.goto(`${server.url}/account`);
    const row = page.locator('#apps tr[data-grant-id]');
    expect(await row.textContent()).toContain('SDK Test Host');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${server.url}/account`);
    expect(await page.locator('#no-apps').count()).toBe(1);
    const refused = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${accessAfterRefresh}`,
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
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // The SDK sees the 401, its refresh is refused too, and it asks the person to authorize again.
    provider.authorizationUrl = undefined;
    await expect(refreshed.callTool({ name: 'search_tools', arguments: {} })).rejects.toThrow();
    expect(provider.authorizationUrl).toBeDefined();

    expect(offLoopback).toEqual([]);
    expect(sdkOffLoopback).toEqual([]);
    expect(crawl.violations).toEqual([]);
  });
});
