// Listing statistics end to end on the real Node server (npm start's entry, in-process, PGlite): a person's page
// loads over a socket are counted after the response, the roll-up job copies them, and the same numbers come
// back through the MCP SDK client (get_site_stats) and the `tooldir stats` binary (a child process).
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startNodeServer, type NodeServer } from '../../functions/node';
import { seedOwnedTool } from '../helpers/owned-tools';
import { BROWSER_UA, only } from '../helpers/stats-harness';
import { cliUser, type CliUser } from './cli/cli-process';
import { createAccountWithKey } from './cli/local-server';

const adminToken = 'stats-e2e-admin-token-0123456789';
const today = new Date().toISOString().slice(0, 10);

let server: NodeServer;
let dataDir: string;
let user: CliUser;
let owner: { accountId: string; key: string };
let tool: { id: string; slug: string };

/** Runs the roll-up job until the counts written after the responses are in (they land off the response path). */
async function rollUpUntil(expected: { views: number; clicks: number; badge_loads: number; impressions: number }) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const job = await fetch(`${server.url}/api/jobs/stats-rollup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}` },
    });
    expect(job.status).toBe(200);
    const res = await fetch(`${server.url}/api/v1/sites/${tool.id}/stats?from=${today}&to=${today}`, {
      headers: { authorization: `Bearer ${owner.key}` },
    });
    const body = (await res.json()) as { days: Record<string, unknown>[] };
    if (JSON.stringify(body.days[0]) === JSON.stringify({ date: today, ...expected })) return body;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the counts never arrived');
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tooldir-stats-e2e-'));
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  server = await startNodeServer(
    { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent' },
    { quiet: true, localSweeper: false },
  );
  owner = await createAccountWithKey(server.url, adminToken, 'member');
  tool = await seedOwnedTool(server.deps.db, owner.accountId, {
    name: `Real Server Stats ${crypto.randomUUID().slice(0, 6)}`,
  });
  user = await cliUser(server.url);
  const browser = { 'user-agent': BROWSER_UA };
  for (const path of [
    `/tools/${tool.slug}`,
    `/tools/${tool.slug}`,
    `/tools/${tool.slug}`,
    `/go/${tool.slug}`,
    `/badge/${tool.slug}.svg`,
    '/',
  ]) {
    const res = await fetch(`${server.url}${path}`, { headers: browser, redirect: 'manual' });
    expect(res.status, path).toBeLessThan(400);
  }
  await rollUpUntil(only({ views: 3, clicks: 1, badge_loads: 1, impressions: 1 }));
});

afterAll(async () => {
  await server?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the MCP tool get_site_stats (official SDK client over HTTP)', () => {
  it('returns the REST body as structured content, for the owner only', async () => {
    const client = new Client({ name: 'stats-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${owner.key}` } },
      }),
    );
    const { tools } = await client.listTools();
    const descriptor = tools.find((t) => t.name === 'get_site_stats');
    expect(descriptor?.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys(descriptor?.inputSchema.properties ?? {})).toEqual(['site_id', 'from', 'to']);
    expect(Object.keys(descriptor?.outputSchema?.properties ?? {})).toEqual([
      'site_id',
      'from',
      'to',
      'days',
      'totals',
    ]);

    const result = await client.callTool({
      name: 'get_site_stats',
      arguments: { site_id: tool.id, from: today, to: today },
    });
    const rest = await (
      await fetch(`${server.url}/api/v1/sites/${tool.id}/stats?from=${today}&to=${today}`, {
        headers: { authorization: `Bearer ${owner.key}` },
      })
    ).json();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(rest);
    expect(result.structuredContent).toMatchObject({
      days: [{ date: today, ...only({ views: 3, clicks: 1, badge_loads: 1, impressions: 1 }) }],
    });

    const badRange = await client.callTool({
      name: 'get_site_stats',
      arguments: { site_id: tool.id, from: '2026-02-30' },
    });
    expect(badRange.isError).toBe(true);
    expect(JSON.stringify(badRange.content)).toContain('invalid_request');
    await client.close();

    const stranger = await createAccountWithKey(server.url, adminToken, 'none');
    const other = new Client({ name: 'stats-e2e-stranger', version: '1.0.0' });
    await other.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${stranger.key}` } },
      }),
    );
    const notYours = await other.callTool({ name: 'get_site_stats', arguments: { site_id: tool.id } });
    expect(notYours.isError).toBe(true);
    expect(JSON.stringify(notYours.content)).toContain('not_found');
    await other.close();

    const anonymous = new Client({ name: 'stats-e2e-anonymous', version: '1.0.0' });
    await anonymous.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/api/mcp/mcp`)));
    const noKey = await anonymous.callTool({ name: 'get_site_stats', arguments: { site_id: tool.id } });
    expect(noKey.isError).toBe(true);
    expect(JSON.stringify(noKey.content)).toContain('unauthorized');
    await anonymous.close();
  });
});

describe('tooldir stats (the binary as a child process)', { timeout: 60_000 }, () => {
  it('prints the same numbers as JSON', async () => {
    const run = await user.run(['stats', tool.id, '--from', today, '--to', today, '--json'], {
      env: { TOOLDIR_API_KEY: owner.key },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(body.days).toEqual([{ date: today, ...only({ views: 3, clicks: 1, badge_loads: 1, impressions: 1 }) }]);
  });

  it('draws a small chart of the last 30 days by default', async () => {
    const run = await user.run(['stats', tool.id], { env: { TOOLDIR_API_KEY: owner.key } });
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(
      new RegExp(`^Statistics of ${tool.id}, \\d{4}-\\d{2}-\\d{2} to ${today} \\(30 UTC days\\)$`),
    );
    expect(lines.find((l) => l.startsWith('views'))).toMatch(/^views {8}·{29}█ +3$/);
    expect(lines.find((l) => l.startsWith('clicks'))).toMatch(/^clicks {7}·{29}█ +1$/);
    expect(run.stdout).toContain('Click-through rate: 25 % (clicks per card impression or page view)');
    expect(run.stdout).toContain('Impressions by placement: 0 sponsored, 0 featured, 1 standard');
  });

  it("refuses bad arguments before asking the server, and reports the server's refusals", async () => {
    const env = { TOOLDIR_API_KEY: owner.key };
    const notId = await user.run(['stats', 'not-a-site-id'], { env });
    expect(notId.code).toBe(2);
    // stats takes a URL as status does: neither a site_id nor an address is refused in the words of every surface.
    expect(notId.stderr).toContain("Enter the website's address, such as https://acme.com (or give the site_id)");
    const badDate = await user.run(['stats', tool.id, '--from', '2026-02-30'], { env });
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--from must be a date YYYY-MM-DD, got "2026-02-30".');
    const tooLong = await user.run(['stats', tool.id, '--from', '2024-01-01', '--to', '2026-01-01'], { env });
    expect(tooLong.code).toBe(2); // the service's invalid_request is a usage error
    expect(tooLong.stderr).toContain('at most 400 per request');
    const unknown = await user.run(['stats', crypto.randomUUID(), '--json'], { env });
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout)).toMatchObject({ error: { code: 'not_found' } });
  });
});
