// MCP submit_site's optional idempotency_key, through the official SDK client (docs/idempotency.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createIdempotencyHarness, type IdempotencyHarness } from '../v1/idempotency-harness';
import { uniqueName, uniqueUrl } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from './mcp-client';

let h: IdempotencyHarness;
beforeAll(async () => {
  h = await createIdempotencyHarness();
});
afterAll(() => h?.t.close());

const tool = () => ({ name: uniqueName('Mcp Idem'), url: uniqueUrl('mcp-idem') });

it('a repeat with the same idempotency_key and arguments gives the first result again; quota counted once', async () => {
  const { key, accountId } = await h.t.member('member');
  const client = await connectMcp(h.t, { key });
  const args = { ...tool(), idempotency_key: crypto.randomUUID() };
  const first = await callTool(client, 'submit_site', args);
  expect(first.isError).toBeFalsy();
  expect(first.structuredContent).toMatchObject({ status: 'queued', quota: { used_today: 1 } });
  const again = await callTool(client, 'submit_site', args);
  expect(again.isError).toBeFalsy();
  expect(again.structuredContent).toEqual(first.structuredContent);
  expect(await h.sitesOf(accountId)).toBe(1);
  expect(await h.quotaUsed(accountId)).toBe(1);
  await client.close();
});

it('a pending-payment result replays with the same checkout_url and no second checkout session', async () => {
  const { key } = await h.t.member('none');
  const client = await connectMcp(h.t, { key });
  const args = { ...tool(), idempotency_key: crypto.randomUUID() };
  const before = h.checkouts.length;
  const first = await callTool(client, 'submit_site', args);
  expect(first.structuredContent).toMatchObject({
    status: 'pending_payment',
    checkout_url: expect.stringMatching(/^http/),
  });
  const again = await callTool(client, 'submit_site', args);
  expect(again.structuredContent).toEqual(first.structuredContent);
  expect(h.checkouts.length).toBe(before + 1);
  await client.close();
});

it('the same key with other arguments → idempotency_key_reused; a malformed key → invalid_request naming it', async () => {
  const { key, accountId } = await h.t.member('member');
  const client = await connectMcp(h.t, { key });
  const idem = crypto.randomUUID();
  expect((await callTool(client, 'submit_site', { ...tool(), idempotency_key: idem })).isError).toBeFalsy();
  const reused = await callTool(client, 'submit_site', { ...tool(), idempotency_key: idem });
  expect(reused.isError).toBe(true);
  expect(resultJson(reused)).toEqual({ error: { code: 'idempotency_key_reused', message: expect.any(String) } });
  for (const bad of ['', 'x'.repeat(256), 'naïve', 42]) {
    const res = await callTool(client, 'submit_site', { ...tool(), idempotency_key: bad });
    expect(res.isError, JSON.stringify(bad)).toBe(true);
    expect(resultJson(res)).toEqual({
      error: { code: 'invalid_request', message: expect.stringMatching(/^idempotency_key /) },
    });
  }
  expect(await h.sitesOf(accountId)).toBe(1);
  await client.close();
});

it('one key is one request across surfaces: a REST submit replays through MCP', async () => {
  const { key, accountId } = await h.t.member('member');
  const body = tool();
  const idem = crypto.randomUUID();
  const rest = await h.t.request('/api/v1/submit-site', {
    method: 'POST',
    key,
    json: body,
    headers: { 'Idempotency-Key': idem },
  });
  expect(rest.status).toBe(201);
  const client = await connectMcp(h.t, { key });
  const viaMcp = await callTool(client, 'submit_site', { ...body, idempotency_key: idem });
  expect(viaMcp.structuredContent).toEqual(await rest.json());
  expect(await h.sitesOf(accountId)).toBe(1);
  await client.close();
});

it('tools/list publishes idempotency_key as an optional string argument', async () => {
  const { key } = await h.t.member('member');
  const client = await connectMcp(h.t, { key });
  const { tools } = await client.listTools();
  const schema = tools.find((t) => t.name === 'submit_site')!.inputSchema as {
    properties: Record<string, { type?: string }>;
    required?: string[];
  };
  expect(schema.properties.idempotency_key?.type).toBe('string');
  expect(schema.required ?? []).not.toContain('idempotency_key');
  await client.close();
});
