// A database that refuses connections: an MCP tool call answers service_unavailable in the error shape, the
// same code and message as the REST 503, never internal_error.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import * as schema from '../../../src/db/schema';
import type { Db } from '../../../src/db/client';
import { createLogger } from '../../../src/log';
import { createTestApp, uniqueName, uniqueUrl, type TestApp } from '../../helpers/test-app';
import { callTool, connectMcp, resultJson } from './mcp-client';

/** A loopback port nothing listens on: taken from the kernel, then released, so connecting is refused. */
async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address !== 'object') throw new Error('no port');
  return address.port;
}

const WELL_FORMED_KEY = 'tdk_AAAAAAAAAAAAAAAAAAAAAA'; // passes the format check, so the lookup reaches the database

let t: TestApp;
let pool: pg.Pool;
const logLines: string[] = [];
let client: Client;
beforeAll(async () => {
  pool = new pg.Pool({
    connectionString: `postgres://tooldir:x@127.0.0.1:${await closedLoopbackPort()}/tooldir`,
    connectionTimeoutMillis: 3000,
  });
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema }) as unknown as Db;
  t = await createTestApp({
    db: { db, close: () => pool.end() },
    overrides: { log: createLogger('error', (line) => logLines.push(line)) },
  });
  client = await connectMcp(t, { key: WELL_FORMED_KEY });
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const unavailable = {
  error: {
    code: 'service_unavailable',
    message: 'The service is temporarily unavailable. Please retry shortly.',
    retry_after_seconds: 5,
  },
};

describe('MCP tool calls while the database refuses connections', () => {
  it('the REST API answers 503 service_unavailable (the reference behaviour)', async () => {
    const rest = await t.request('/api/v1/tools?q=writer');
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('5');
    expect(await rest.json()).toEqual({ error: { code: unavailable.error.code, message: unavailable.error.message } });
  });

  it('an anonymous read tool answers service_unavailable with the REST code and message', async () => {
    const result = await callTool(client, 'get_tool', { slug: 'anything' });
    expect(result.isError).toBe(true);
    expect(resultJson(result)).toEqual(unavailable);
  });

  it('a keyed tool answers service_unavailable when the key lookup cannot reach the database', async () => {
    const submit = await callTool(client, 'submit_site', { name: uniqueName('Down'), url: uniqueUrl('down') });
    expect(submit.isError).toBe(true);
    expect(resultJson(submit)).toEqual(unavailable);
    const status = await callTool(client, 'get_site_status', { site_id: crypto.randomUUID() });
    expect(resultJson(status)).toEqual(unavailable);
  });

  it('logs the fault as service unavailable, with the driver error, and shows no driver detail to the caller', async () => {
    logLines.length = 0;
    const anonymous = await connectMcp(t);
    const result = await callTool(anonymous, 'search_tools', { query: 'writer' });
    await anonymous.close();
    expect(resultJson(result)).toEqual(unavailable);
    expect(JSON.stringify(result)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/);
    expect(logLines.join('\n')).toMatch(/service unavailable.*ECONNREFUSED/);
  });
});
