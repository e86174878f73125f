// tooldir submit --mcp-url and tooldir edit --mcp-url / --remove-mcp-url (docs/mcp-servers.md), as a child process:
// what is sent (against a recording server), and a malformed endpoint refused by the real server (nothing stored).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser } from './cli-process';
import { startLocalServer, type LocalServer } from './local-server';
import { startRecordingServer, type RecordingServer } from './recording-server';

let a: LocalServer;
let b: RecordingServer;
beforeAll(async () => {
  [a, b] = await Promise.all([startLocalServer(), startRecordingServer()]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.close()]);
});

const SITE_ID = '0b6f9a52-3c1e-4d7a-9f7e-2a4b5c6d7e8f';
const record = {
  site_id: SITE_ID,
  name: 'Acme',
  url: 'https://acme.example/',
  status: 'live',
  is_feature: false,
  is_sponsor: false,
  submitted_at: '2026-11-21 22:00:00+00',
  mcp_url: 'https://acme.example/mcp',
  mcp: {
    url: 'https://acme.example/mcp',
    status: 'reachable',
    reason_kind: null,
    reason: null,
    transport: 'streamable_http',
    protocol_version: '2025-11-25',
    server: { name: 'acme', title: null, version: '1.0.0' },
    auth_issuer: null,
    tools: [],
    tool_count: 3,
    checked_at: '2026-11-22T08:15:00.000Z',
    tools_seen_at: '2026-11-22T08:15:00.000Z',
    changelog: [],
  },
};

describe('the CLI and mcp_url', { timeout: 120_000 }, () => {
  it('submit --mcp-url and edit --mcp-url / --remove-mcp-url send it; status shows what the probe found', async () => {
    const env = { TOOLDIR_API_KEY: 'tdk_b', TOOLDIR_BASE_URL: b.url };
    const user = await cliUser(b.url);
    b.answer(() => ({
      status: 201,
      body: { site_id: SITE_ID, status: 'queued', via: 'membership', quota: { used_today: 1, daily_limit: 5 } },
    }));
    const submit = await user.run(
      ['submit', 'https://acme.example', '--name', 'Acme', '--mcp-url', 'https://acme.example/mcp'],
      { env },
    );
    expect(submit.code, submit.stderr).toBe(0);
    b.answer(() => ({ status: 202, body: record }));
    const edit = await user.run(['edit', SITE_ID, '--mcp-url', 'https://acme.example/mcp'], { env });
    expect(edit.code, edit.stderr).toBe(0);
    expect(edit.stdout).toContain('MCP endpoint changed');
    expect(edit.stdout).toContain('  MCP server: https://acme.example/mcp');
    expect(edit.stdout).toContain('reachable, 3 tools (acme)');
    const remove = await user.run(['edit', SITE_ID, '--remove-mcp-url'], { env });
    expect(remove.code, remove.stderr).toBe(0);
    expect(b.received.map((r) => [r.method, r.path, r.body])).toEqual([
      [
        'POST',
        '/api/v1/submit-site',
        { name: 'Acme', url: 'https://acme.example', mcp_url: 'https://acme.example/mcp' },
      ],
      ['PATCH', `/api/v1/sites/${SITE_ID}`, { mcp_url: 'https://acme.example/mcp' }],
      ['PATCH', `/api/v1/sites/${SITE_ID}`, { mcp_url: null }],
    ]);
    const both = await user.run(['edit', SITE_ID, '--mcp-url', 'https://a.example/mcp', '--remove-mcp-url'], { env });
    expect(both.code).toBe(2);
    expect(b.received).toHaveLength(3);
  });

  it('a malformed --mcp-url is refused by the server in its words (exit 2, a bad argument) and nothing is submitted', async () => {
    const { key } = await a.account('member');
    const user = await cliUser(a.url);
    const env = { TOOLDIR_API_KEY: key };
    const run = await user.run(
      ['submit', 'https://mcp-cli.example', '--name', 'Mcp Cli', '--mcp-url', 'https://user:pw@mcp-cli.example/mcp'],
      { env },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/^Error: .*mcp_url.*user name or password/);
    const list = await user.run(['list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toMatchObject({ sites: [] });
  });
});
