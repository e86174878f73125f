// The owner's submission page and a listing's MCP server in Chromium (docs/mcp-servers.md): the owner sets the
// endpoint in the page's form, the probe (in the background) lists the server's tools; the server changes its tools,
// a re-check records the change, and the page shows the changelog. A malformed endpoint comes back with its error.
// At 1280 and 390 px with axe-core; MCP_SCREENSHOTS=docs/screenshots keeps mcp-owner-changelog.png.
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import type { CrawlTransport } from '../../../src/deps';
import {
  checkBothWidths,
  signedInMember,
  startHealthServer,
  type HealthServer,
} from '../../helpers/browser/health-server';
import { startLoopbackBrowser, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { startSdkMcpServer, type SdkMcpServer } from '../../helpers/mcp-test-server';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');
const MCP_HOST = 'tools-mcp.localhost';

describeBrowser("the owner's page of a listing with an MCP server", () => {
  let h: HealthServer;
  let chromium: LoopbackBrowser;
  let mcp: SdkMcpServer;

  beforeAll(async () => {
    mcp = await startSdkMcpServer([
      { name: 'search_docs', title: 'Search the docs', description: 'Finds pages in the documentation' },
      { name: 'open_ticket', description: 'Opens a support ticket' },
    ]);
    // The crawler reaches the health sites and, by its own name, the MCP server; nothing else.
    const withMcp = (sites: CrawlTransport): CrawlTransport => ({
      ...sites,
      resolver: async (hostname, signal) => (hostname === MCP_HOST ? ['127.0.0.1'] : sites.resolver(hostname, signal)),
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
        if (url.hostname === MCP_HOST) return fetch(`http://127.0.0.1:${mcp.port}${url.pathname}${url.search}`, init);
        return sites.fetch(input, init);
      }) as typeof fetch,
    });
    h = await startHealthServer({}, { crawl: withMcp });
    chromium = await startLoopbackBrowser();
  }, 240_000);
  afterAll(async () => {
    expect(chromium?.offLoopback).toEqual([]);
    expect(chromium?.cspViolations).toEqual([]);
    expect(h?.sites.violations).toEqual([]);
    await chromium?.close();
    await h?.close();
    await mcp?.close();
  });

  it('sets the endpoint, lists the tools, shows the changelog after a re-check', async () => {
    const { accountId, page, context } = await signedInMember(h, chromium);
    h.sites.set('docsy', { kind: 'up', title: 'Docsy', description: 'Docs with an MCP server' });
    const tool = await h.liveTool('docsy', 'Docsy', { accountId });
    const pageUrl = `${h.server.url}/account/submissions/${tool.id}`;
    await page.goto(pageUrl);
    const section = page.getByRole('region', { name: 'MCP server' });
    expect(await section.textContent()).toMatch(/Has your tool a remote MCP server/);

    // A malformed endpoint: the page comes back with the error next to the field, nothing stored.
    await section.getByLabel('MCP endpoint').fill('ftp://docsy.example/mcp');
    await section.getByRole('button', { name: 'Save the MCP endpoint' }).click();
    await page.locator('#mcp-url-error').waitFor();
    expect(await page.locator('#mcp-url-error').textContent()).toMatch(/must be an absolute http\(s\) URL/);
    expect(await page.getByRole('alert').textContent()).toMatch(/The MCP endpoint was not changed/);
    const [stored] = await queryRows<{ mcp_url: string | null }>(
      h.server.deps.db,
      sql`SELECT mcp_url FROM sites WHERE id = ${tool.id}::uuid`,
    );
    expect(stored?.mcp_url).toBeNull();
    await checkBothWidths(page);

    const endpoint = `http://${MCP_HOST}:${mcp.port}/mcp`;
    await page.getByRole('region', { name: 'MCP server' }).getByLabel('MCP endpoint').fill(endpoint);
    await page
      .getByRole('region', { name: 'MCP server' })
      .getByRole('button', { name: 'Save the MCP endpoint' })
      .click();
    await page.waitForURL(`${pageUrl}#mcp`);
    // The probe runs in the background: the page says "not checked yet" until it is recorded.
    await expect
      .poll(async () => {
        await page.goto(pageUrl);
        return page.locator('#mcp-status').getAttribute('data-status');
      })
      .toBe('reachable');
    expect(await page.locator('#mcp-tools').textContent()).toMatch(/search_docs.*Search the docs.*open_ticket/s);
    expect(await page.locator('#mcp-server').textContent()).toBe('acme-test-mcp, version 1.2.3');
    expect(await page.locator('#mcp-changelog-empty').count()).toBe(1);

    mcp.setTools([
      { name: 'search_docs', title: 'Search the docs', description: 'Finds pages and code samples' },
      { name: 'summarize_page', description: 'Summarizes one page' },
    ]);
    await h.recheck(tool.id);
    await page.goto(pageUrl);
    const entry = page.locator('#mcp-changelog li').first();
    expect(await entry.textContent()).toMatch(/added summarize_page · removed open_ticket · re-described search_docs/);
    await page.locator('#mcp').scrollIntoViewIfNeeded();
    await checkBothWidths(page);
    const dir = process.env.MCP_SCREENSHOTS;
    if (dir) await page.locator('#mcp').screenshot({ path: join(dir, 'mcp-owner-changelog.png') });
    await context.close();
  });
});
