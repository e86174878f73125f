import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTestApp, type TestApp, uniqueUrl, uniqueName } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from './mcp-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('keyed tools without a valid key', () => {
  it('answer a clear unauthorized tool error, while anonymous tools still work', async () => {
    const anonymous = await connectMcp(t);
    const submit = await callTool(anonymous, 'submit_site', { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') });
    expect(submit.isError).toBe(true);
    expect(resultJson(submit)).toEqual({
      error: { code: 'unauthorized', message: expect.stringMatching(/Authorization: Bearer/) },
    });
    const status = await callTool(anonymous, 'get_site_status', { site_id: crypto.randomUUID() });
    expect(resultJson(status)).toMatchObject({ error: { code: 'unauthorized' } });
    expect((await callTool(anonymous, 'search_tools', {})).isError).toBeFalsy();
    await anonymous.close();

    const forged = await connectMcp(t, { key: 'tdk_AAAAAAAAAAAAAAAAAAAAAA' });
    expect(
      resultJson(await callTool(forged, 'submit_site', { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') })),
    ).toMatchObject({
      error: { code: 'unauthorized' },
    });
    expect((await callTool(forged, 'search_tools', {})).isError).toBeFalsy();
    await forged.close();
  });

  it('refuse a revoked key', async () => {
    const m = await t.member('member');
    const client = await connectMcp(t, { key: m.key });
    expect(
      (await callTool(client, 'submit_site', { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') })).isError,
    ).toBeFalsy();
    expect(
      (await t.request(`/api/v1/admin/keys/${m.keyId}`, { method: 'DELETE', key: ADMIN_TOKEN })).status,
    ).toBeLessThan(300);
    const after = await callTool(client, 'submit_site', { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') });
    expect(resultJson(after)).toMatchObject({ error: { code: 'unauthorized' } });
    await client.close();
  });
});

describe('submit_site', () => {
  it('queues a member submission and returns the REST 201 body', async () => {
    const m = await t.member('member');
    const client = await connectMcp(t, { key: m.key });
    const result = await callTool(client, 'submit_site', { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') });
    expect(result.isError).toBeFalsy();
    const body = {
      site_id: expect.any(String),
      status: 'queued',
      via: 'membership',
      quota: { used_today: 1, daily_limit: 5 },
    };
    expect(result.structuredContent).toEqual(body);
    expect(resultJson(result)).toEqual(result.structuredContent);
    await client.close();
  });

  it('returns payment-required as a normal result carrying checkout_url, expires_at and reason', async () => {
    const m = await t.member('none');
    const client = await connectMcp(t, { key: m.key });
    const name = uniqueName('Mcp Tool');
    const url = uniqueUrl('mcp');
    const result = await callTool(client, 'submit_site', { name, url, plan: 'featured' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      site_id: expect.any(String),
      name,
      url: `${url}/`, // as the URL parser reads it
      status: 'pending_payment',
      plan: 'featured',
      checkout_url: expect.stringMatching(/^https?:\/\//),
      expires_at: expect.stringMatching(/Z$/),
      submitted_at: expect.stringMatching(/Z$/),
      reason: 'no_membership',
    });
    // get_site_status reads the unpaid record by its site_id, as GET /api/v1/sites/{id} does.
    const siteId = (result.structuredContent as { site_id: string }).site_id;
    const status = await callTool(client, 'get_site_status', { site_id: siteId });
    const rest = await (await t.request(`/api/v1/sites/${siteId}`, { key: m.key })).json();
    expect(status.structuredContent).toEqual(rest);
    expect(status.structuredContent).toMatchObject({ status: 'pending_payment', checkout_url: expect.any(String) });
    // ...and by its url too: the unpaid record is found after the (absent) site record.
    const byUrl = await callTool(client, 'get_site_status', { url: `${url}/?utm_source=agent` });
    expect(byUrl.structuredContent).toEqual(rest);
    await client.close();
  });

  it('reports validation errors as tool errors naming the field', async () => {
    const m = await t.member('member');
    const client = await connectMcp(t, { key: m.key });
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ name: 'x', url: uniqueUrl('mcp') }, /name must be 2 to 100 characters/],
      [
        { name: uniqueName('Mcp Tool'), url: 'ftp://example.com' },
        /url: The address must start with https:\/\/ or http:\/\/, not ftp:/,
      ],
      [{ name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp'), email: 'nope' }, /email must be a valid e-mail address/],
      [
        { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp'), plan: 'gold' },
        /plan must be one of basic, featured, sponsored, pro/,
      ],
      [{ url: uniqueUrl('mcp') }, /name is required/],
    ];
    for (const [args, message] of cases) {
      const result = await callTool(client, 'submit_site', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(message);
    }
    await client.close();
  });

  it('reports an already submitted url like REST 409, with site_id for its owner only', async () => {
    const owner = await t.member('member');
    const other = await t.member('member');
    const url = uniqueUrl('mcp');
    const ownerClient = await connectMcp(t, { key: owner.key });
    const first = await callTool(ownerClient, 'submit_site', { name: uniqueName('Mcp Tool'), url });
    const siteId = (first.structuredContent as { site_id: string }).site_id;
    const again = await callTool(ownerClient, 'submit_site', { name: uniqueName('Mcp Tool'), url });
    expect(again.isError).toBe(true);
    expect(resultJson(again)).toEqual({
      error: { code: 'already_submitted', message: expect.any(String), site_id: siteId },
    });
    const otherClient = await connectMcp(t, { key: other.key });
    const theirs = await callTool(otherClient, 'submit_site', { name: uniqueName('Mcp Tool'), url });
    expect(resultJson(theirs)).toEqual({ error: { code: 'already_submitted', message: expect.any(String) } });
    await ownerClient.close();
    await otherClient.close();
  });
});

describe('get_site_status', () => {
  it("returns the REST detail body by site_id and by url, and not_found for another caller's site", async () => {
    const owner = await t.member('member');
    const stranger = await t.member('member');
    const url = uniqueUrl('mcp');
    const client = await connectMcp(t, { key: owner.key });
    const submitted = await callTool(client, 'submit_site', {
      name: uniqueName('Mcp Tool'),
      url: `${url}/?utm_source=x`,
    });
    const siteId = (submitted.structuredContent as { site_id: string }).site_id;
    const rest = await (await t.request(`/api/v1/sites/${siteId}`, { key: owner.key })).json();
    const byId = await callTool(client, 'get_site_status', { site_id: siteId });
    expect(byId.isError).toBeFalsy();
    expect(byId.structuredContent).toEqual(rest);
    expect(resultJson(byId)).toEqual(rest);
    const byUrl = await callTool(client, 'get_site_status', { url: url.toUpperCase().replace('HTTPS://', 'https://') });
    expect(byUrl.structuredContent).toEqual(rest);

    const strangerClient = await connectMcp(t, { key: stranger.key });
    for (const args of [{ site_id: siteId }, { url }, { site_id: crypto.randomUUID() }, { site_id: 'not-a-uuid' }]) {
      const result = await callTool(strangerClient, 'get_site_status', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(resultJson(result)).toMatchObject({ error: { code: 'not_found' } });
    }
    await strangerClient.close();
    await client.close();
  });

  it('asks for exactly one of site_id / url and validates the url', async () => {
    const m = await t.member('member');
    const client = await connectMcp(t, { key: m.key });
    expect(resultJson(await callTool(client, 'get_site_status', {}))).toEqual({
      error: { code: 'invalid_request', message: 'site_id or url: pass exactly one of them.' },
    });
    expect(resultJson(await callTool(client, 'get_site_status', { url: 'not a url' }))).toEqual({
      error: { code: 'invalid_request', message: "url: Enter the website's address, such as https://acme.com" },
    });
    await client.close();
  });
});

describe('rate limits shared with REST', () => {
  it('counts MCP submits in the same per-account bucket as REST submits', async () => {
    const m = await t.member('none');
    for (let i = 0; i < 10; i++) {
      const res = await t.request('/api/v1/submit-site', {
        method: 'POST',
        key: m.key,
        json: { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') },
      });
      expect(res.status).toBe(402);
    }
    const client = await connectMcp(t, { key: m.key });
    const limited = await callTool(client, 'submit_site', { name: uniqueName('Mcp Tool'), url: uniqueUrl('mcp') });
    expect(limited.isError).toBe(true);
    expect(resultJson(limited)).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/Retry in \d+ s\./),
        retry_after_seconds: expect.any(Number),
      },
    });
    // The read bucket is separate: status reads still work.
    expect(resultJson(await callTool(client, 'get_site_status', { site_id: crypto.randomUUID() }))).toMatchObject({
      error: { code: 'not_found' },
    });
    await client.close();
  });

  it('counts MCP status reads in the same per-account bucket as REST reads', async () => {
    const m = await t.member('member');
    for (let i = 0; i < 60; i++) expect((await t.request('/api/v1/sites?limit=1', { key: m.key })).status).toBe(200);
    const client = await connectMcp(t, { key: m.key });
    expect(resultJson(await callTool(client, 'get_site_status', { site_id: crypto.randomUUID() }))).toMatchObject({
      error: { code: 'rate_limited' },
    });
    await client.close();
  });
});
