// A tool page with an MCP server, in Chromium (issue 33, docs/registry-api.md "On the tool page"): the server's tools
// with when they were last seen, the status in words for one that asks for sign-in, and the "add to your client"
// snippets, each copied by its button exactly as shown (a hostile URL included). At 1280 and 390 px with axe-core,
// nothing wider than the viewport, no CSP violation, nothing off loopback.
// MCP_SCREENSHOTS=docs/screenshots keeps tool-page-mcp.png (1280 px) and tool-page-mcp-390.png.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { seedTools } from '../../helpers/live-tools';
import { giveMcpServer } from '../../helpers/mcp-listings';
import { startLoopbackBrowser, NARROW, WIDE, type LoopbackBrowser } from '../../helpers/browser/loopback-browser';
import { expectNoAxeViolations } from '../../helpers/browser/axe';
import { expectFitsViewport } from '../../helpers/browser/viewport';
import { findChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';

const describeBrowser = requireService('Chromium', findChromium() !== null, 'REQUIRE_BROWSER');

describeBrowser('a tool page with an MCP server, in Chromium', () => {
  let server: NodeServer;
  let chromium: LoopbackBrowser;
  let context: BrowserContext;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-mcp-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    chromium = await startLoopbackBrowser();
    context = await chromium.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    expect(chromium?.offLoopback).toEqual([]);
    expect(chromium?.cspViolations).toEqual([]);
    await chromium?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function checkBothWidths(shot?: string) {
    for (const viewport of [WIDE, NARROW]) {
      await page.setViewportSize(viewport);
      await expectFitsViewport(page, viewport.width);
      await expectNoAxeViolations(page);
      const dir = process.env.MCP_SCREENSHOTS;
      if (dir && shot)
        await page.screenshot({
          path: join(dir, viewport === WIDE ? `${shot}.png` : `${shot}-${viewport.width}.png`),
          fullPage: true,
        });
    }
    await page.setViewportSize(WIDE);
  }

  it('lists the tools, says when they were last seen, and copies each snippet as shown', async () => {
    const [tool] = await seedTools(
      server.deps.db,
      [
        {
          name: 'Issuetrack',
          slug: 'issuetrack',
          description: 'Tracks issues for small teams.',
          categories: ['productivity'],
        },
      ],
      server.deps.origin,
    );
    // A URL with characters the shell and JSON care about: each snippet must still paste as one value.
    const url = "https://mcp.issuetrack.example/mcp?team=a&b=it's";
    await giveMcpServer(server.deps.db, tool!.id, url, {
      tools: [
        {
          name: 'create_issue',
          title: 'Create an issue',
          description: 'Opens an issue in a project, with a title and a body.',
        },
        { name: 'list_issues', title: 'List issues', description: 'The open issues of a project, newest first.' },
        { name: 'close_issue', description: 'Closes an issue <b>for good</b>.' },
      ],
      at: new Date('2026-11-28T09:30:00Z'),
    });
    await page.goto(`${server.url}/tools/${tool!.slug}`);
    const section = page.locator('section.mcp');
    expect(await section.getByRole('heading', { name: 'MCP server' }).count()).toBe(1);
    expect(await section.locator('ul.mcp-tools li').count()).toBe(3);
    expect(await section.textContent()).toContain('Last seen 2026-11-28 09:30 UTC');
    expect(await section.textContent()).toContain('Closes an issue <b>for good</b>.');
    // The screenshot before any button says "Copied".
    await checkBothWidths('tool-page-mcp');

    for (const id of ['url', 'claude-code', 'cursor', 'vscode', 'claude-desktop']) {
      const shown = await page.locator(`#mcp-${id}`).textContent();
      await page.locator(`button[data-copy="mcp-${id}"]`).click();
      expect(await page.evaluate(() => navigator.clipboard.readText()), id).toBe(shown);
    }
    expect(await page.locator('#mcp-claude-code').textContent()).toBe(
      `claude mcp add --transport http ${tool!.slug} 'https://mcp.issuetrack.example/mcp?team=a&b=it'\\''s'`,
    );
    expect(JSON.parse((await page.locator('#mcp-cursor').textContent())!)).toEqual({
      mcpServers: { [tool!.slug]: { url } },
    });
    expect(JSON.parse((await page.locator('#mcp-vscode').textContent())!)).toEqual({
      servers: { [tool!.slug]: { type: 'http', url } },
    });
    await checkBothWidths();
  });

  it('says "asks for sign-in" for a server that wants credentials, and offers SSE to an SSE server', async () => {
    const [tool] = await seedTools(server.deps.db, [{ name: 'Lockedbox' }], server.deps.origin);
    await giveMcpServer(server.deps.db, tool!.id, 'https://lockedbox.example/sse', {
      status: 'auth_required',
      transport: 'sse',
    });
    await page.goto(`${server.url}/tools/${tool!.slug}`);
    expect(await page.locator('section.mcp').textContent()).toContain('This server asks for sign-in.');
    expect(await page.locator('#mcp-claude-code').textContent()).toContain('--transport sse');
    await checkBothWidths();
  });
});
