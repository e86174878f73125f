import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { declaredBodyLimit } from '../../../functions/middleware/body-limit';

// The 64 KiB API body limit over a real socket (Node's HTTP parser), declared and chunked, plus the rule
// that a declared length is trusted without reading the body.

let server: NodeServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'tooldir-body-limit-'));
  cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** POST /api/v1/submit-site with no key; `chunked` sends the body without a Content-Length. */
function post(body: string, chunked: boolean): Promise<{ status: number; json: { error?: { code: string } } }> {
  const url = new URL('/api/v1/submit-site', server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(!chunked && { 'content-length': Buffer.byteLength(body) }) },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as { error?: { code: string } } }),
      );
    });
    req.on('error', reject);
    if (chunked) {
      for (let i = 0; i < body.length; i += 8192) req.write(body.slice(i, i + 8192));
      req.end();
    } else req.end(body);
  });
}

const big = JSON.stringify({ name: 'x', url: 'https://big.example', pad: 'p'.repeat(70 * 1024) });
const small = JSON.stringify({ name: 'Small', url: 'https://small.example' });

describe('the API body limit on Node', () => {
  it('refuses a declared body over 64 KiB with 413 payload_too_large', async () => {
    const res = await post(big, false);
    expect(res.status).toBe(413);
    expect(res.json.error?.code).toBe('payload_too_large');
  });

  it('refuses a chunked body over 64 KiB with 413 payload_too_large', async () => {
    const res = await post(big, true);
    expect(res.status).toBe(413);
    expect(res.json.error?.code).toBe('payload_too_large');
  });

  it('lets small bodies through, declared or chunked (to auth: 401 without a key)', async () => {
    expect((await post(small, false)).status).toBe(401);
    expect((await post(small, true)).status).toBe(401);
  });
});

describe('declaredBodyLimit', () => {
  const app = new Hono();
  app.use(
    '*',
    declaredBodyLimit(10, (c) => c.text('too large', 413)),
  );
  app.post('/', (c) => c.text('ok'));
  // A body that fails the test if anything reads it.
  const unreadable = () =>
    new ReadableStream({
      pull() {
        throw new Error('the body was read');
      },
    });

  it('trusts a declared Content-Length and never reads the body', async () => {
    const over = new Request('http://local/', {
      method: 'POST',
      body: unreadable(),
      headers: { 'content-length': '11' },
      duplex: 'half',
    } as RequestInit);
    expect((await app.request(over)).status).toBe(413);
    const under = new Request('http://local/', {
      method: 'POST',
      body: unreadable(),
      headers: { 'content-length': '10' },
      duplex: 'half',
    } as RequestInit);
    expect((await app.request(under)).status).toBe(200);
  });

  it('counts an undeclared body', async () => {
    expect((await app.request('/', { method: 'POST', body: 'x'.repeat(11) })).status).toBe(413);
    expect((await app.request('/', { method: 'POST', body: 'x'.repeat(10) })).status).toBe(200);
  });
});
