// MCP verify_domain and claim_site: the same verbs as REST, through the SDK client; errors as results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueName, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { txtTable } from '../../helpers/domain-fixtures';
import { callTool, connectMcp, resultJson } from './mcp-client';

const records: Record<string, string[]> = {};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records) } });
});
afterAll(() => t.close());

describe('MCP ownership tools', () => {
  it('verify_domain adds and proves a domain; claim_site then takes the listing', async () => {
    const domain = `mcp-${crypto.randomUUID().slice(0, 8)}.com`;
    const [owner, maker] = [await t.member(), await t.member()];
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: uniqueName('Via MCP'),
      url: `https://${domain}/`,
    });
    const client = await connectMcp(t, { key: maker.key });

    const first = await callTool(client, 'verify_domain', { domain, method: 'dns' });
    expect(first.isError).toBe(true);
    expect(JSON.stringify(first.content)).toContain('verification_failed');
    const before = await callTool(client, 'claim_site', { url: `https://${domain}/` });
    expect(before.isError).toBe(true);
    expect(JSON.stringify(before.content)).toContain('domain_not_verified');

    const { token } = await (await t.request('/api/v1/domains', { key: maker.key })).json().then((b) => b.domains[0]);
    records[domain] = [`tooldir-verification=${token}`];
    const proven = await callTool(client, 'verify_domain', { domain: domain.toUpperCase(), method: 'dns' });
    expect(resultJson(proven)).toMatchObject({ domain, status: 'verified', method: 'dns' });

    const claimed = await callTool(client, 'claim_site', { url: `https://${domain}/` });
    expect(claimed.isError).toBeFalsy();
    expect(resultJson(claimed)).toMatchObject({ site_id: tool.id, verified_owner: true });

    const bad = await callTool(client, 'verify_domain', { domain: 'co.uk', method: 'dns' });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('public suffix');
  });
});
