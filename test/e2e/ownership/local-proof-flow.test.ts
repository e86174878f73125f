// The local flow of issue 29 point 7, through the real Node server over HTTP: with CRAWL_ALLOW_PRIVATE=true a site on
// http://<name>.localhost:<port>/ serves the HTTP proof and the API verifies it. The server's crawl transport is its
// own (pinned fetch, reserved names) over a resolver that refuses every lookup: only loopback can be reached.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { localOnlyCrawl } from '../../helpers/local-proof-network';
import { noTxt } from '../../helpers/domain-fixtures';

const crawl = localOnlyCrawl();
let server: NodeServer;
let site: FixtureSite;
let dataDir: string;
let body = '';
const hosts: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tooldir-local-proof-'));
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  site = await startFixtureSite({
    '/.well-known/tooldir-verification.txt': (request, response) => {
      hosts.push(String(request.headers.host));
      response.writeHead(200, { 'content-type': 'text/plain' }).end(body);
    },
  });
  server = await startNodeServer(
    { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', CRAWL_ALLOW_PRIVATE: 'true' },
    { overrides: { crawl, txt: noTxt }, localSweeper: false },
  );
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => expect(crawl.refused).toEqual([]));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = (response: Response): Promise<any> => response.json();

async function apiKey(): Promise<string> {
  const admin = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
  const email = `local-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const account = await json(
    await fetch(`${server.url}/api/v1/admin/accounts`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ email, tier: 'member' }),
    }),
  );
  const keyed = await fetch(`${server.url}/api/v1/admin/accounts/${account.account_id}/keys`, {
    method: 'POST',
    headers: { authorization: admin.authorization },
  });
  expect(keyed.status, await keyed.clone().text()).toBe(201);
  return (await json(keyed)).key;
}
const call = (key: string, path: string, json?: unknown) =>
  fetch(`${server.url}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });

describe('the HTTP proof of a <name>.localhost domain, locally', () => {
  it('adds the domain, is refused while the file is wrong, verifies once it serves the token', async () => {
    const key = await apiKey();
    const name = `mytool-${crypto.randomUUID().slice(0, 6)}.localhost`;
    const added = await call(key, '/api/v1/domains', { domain: `App.${name}` });
    expect(added.status).toBe(201);
    const record = await json(added);
    expect(record).toMatchObject({ domain: name, status: 'pending' });
    expect(record.methods.http.url).toBe(`http://${name}/.well-known/tooldir-verification.txt`);

    body = 'not the token';
    const refused = await call(key, `/api/v1/domains/${name}/verify`, { method: 'http', port: site.port });
    expect(refused.status).toBe(422);
    expect((await json(refused)).error).toMatchObject({
      code: 'verification_failed',
      message: expect.stringContaining('wrong value'),
    });

    body = `${record.token}\n`;
    const verified = await call(key, `/api/v1/domains/${name}/verify`, { method: 'http', port: site.port });
    expect(verified.status).toBe(200);
    expect(await json(verified)).toMatchObject({ domain: name, status: 'verified', method: 'http' });
    expect(hosts.at(-1)).toBe(`${name}:${site.port}`);
  });

  it('refuses a port for a domain that is not local, and never looks it up', async () => {
    const key = await apiKey();
    expect((await call(key, '/api/v1/domains', { domain: 'example.org' })).status).toBe(201);
    const res = await call(key, '/api/v1/domains/example.org/verify', { method: 'http', port: site.port });
    expect(res.status).toBe(400);
    expect((await json(res)).error.message).toContain('<name>.localhost');
  });
});
