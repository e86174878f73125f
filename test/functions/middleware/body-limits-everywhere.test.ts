// Every route that can receive a body answers an oversized one with 413 before reading it (issue 27: the
// statistics opt-out, the editor's login and review forms and /oauth/token read 8 MiB before answering). The test
// walks the app's own route table, so a route added later without a limit fails here without being named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES, FORM_LIMIT_TEXT } from '../../../src/body-limit';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const EIGHT_MIB = 8 * 1024 * 1024;
const CHUNK = 64 * 1024;
/** The largest limit any route has (the Stripe webhook's 1 MiB); a route that reads further has no limit. */
const LARGEST_LIMIT = 1024 * 1024;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Registered for any method (the MCP transport answers GET, POST and DELETE itself), yet POST must meet the limit. */
const POST_FOR_ANY = new Set(['/mcp', '/api/mcp/mcp']);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Route {
  method: string;
  path: string;
  /** Registered for every method (app.all, app.use): a POST may be a 404 or 405 there, but is never read unbounded. */
  any: boolean;
}

/**
 * Every (method, path) that can take a body, with its parameters filled in: the POST, PUT, PATCH and DELETE routes,
 * and the routes registered for any method (the MCP endpoints among them), tried with a POST.
 */
function bodyRoutes(): Route[] {
  const seen = new Map<string, Route>();
  for (const route of t.app.routes) {
    const any = route.method === 'ALL';
    if (!BODY_METHODS.has(route.method) && !(any && !route.path.includes('*'))) continue;
    const method = any ? 'POST' : route.method;
    const path = route.path.replace(/:[a-z_]+/g, (param) =>
      param.endsWith('id') ? '0b6f3a52-3c1e-4b7e-9d55-6a3c2f9e1d20' : 'x',
    );
    const key = `${method} ${path}`;
    seen.set(key, { method, path, any: (seen.get(key)?.any ?? true) && any && !POST_FOR_ANY.has(path) });
  }
  return [...seen.values()];
}

/** A body that counts what is read of it; `size` bytes in CHUNK pieces. */
function countedBody(size: number) {
  const counter = { read: 0 };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.read >= size) return controller.close();
        counter.read += CHUNK;
        controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
      },
    },
    { highWaterMark: 0 },
  ); // nothing is pulled until someone reads
  return { stream, counter };
}

function send(route: Route, body: ReadableStream<Uint8Array>, declared?: number) {
  const headers: Record<string, string> = {
    'content-type':
      route.path.startsWith('/oauth/register') || route.path.startsWith('/api/') || route.path === '/mcp'
        ? 'application/json'
        : 'application/x-www-form-urlencoded',
  };
  if (declared !== undefined) headers['content-length'] = String(declared);
  headers.origin = 'http://tooldir.test';
  headers['cf-connecting-ip'] = '203.0.113.77';
  return t.app.request(
    new Request(`http://tooldir.test${route.path}`, {
      method: route.method,
      body,
      headers,
      duplex: 'half',
    } as RequestInit),
  );
}

/**
 * Each area answers in its own shape: the API's error body, JSON-RPC for MCP, RFC 6749 for OAuth, a page for pages.
 * A path registered for any method may instead refuse the method itself (404, 405) without reading anything.
 */
async function expectRefusedInWords(route: Route, res: Response) {
  const label = `${route.method} ${route.path}`;
  if (route.any && res.status !== 413) {
    expect([404, 405], label).toContain(res.status);
    return;
  }
  expect(res.status, label).toBe(413);
  const text = await res.text();
  if (route.path === '/mcp' || route.path.startsWith('/api/mcp'))
    expect(JSON.parse(text).error.code, label).toBe(-32000);
  else if (route.path.startsWith('/oauth/')) {
    expect(JSON.parse(text), label).toEqual({
      error: expect.stringMatching(/^invalid_(request|client_metadata)$/),
      error_description: `The request body is larger than ${FORM_LIMIT_TEXT}.`,
    });
  } else if (route.path.startsWith('/api/'))
    expect(JSON.parse(text), label).toEqual({
      error: { code: 'payload_too_large', message: expect.stringMatching(/larger than/) },
    });
  else expect(text, label).toMatch(/<html[\s\S]*(larger than|Request refused)/);
}

describe('every route that takes a body', () => {
  it('finds the routes this issue named among them (the walk is not empty)', () => {
    const paths = bodyRoutes().map((r) => `${r.method} ${r.path}`);
    const named = [
      'POST /stats/unsubscribe/x',
      'POST /admin/login',
      'POST /admin/sites/0b6f3a52-3c1e-4b7e-9d55-6a3c2f9e1d20/review',
      'POST /oauth/token',
    ];
    for (const path of [...named, 'POST /mcp', 'POST /api/mcp/mcp']) {
      expect(paths).toContain(path);
    }
    expect(paths.length).toBeGreaterThan(40);
  });

  it('refuses a declared 8 MiB body with 413 without reading a byte of it', async () => {
    for (const route of bodyRoutes()) {
      const { stream, counter } = countedBody(EIGHT_MIB);
      const res = await send(route, stream, EIGHT_MIB);
      await expectRefusedInWords(route, res);
      expect(counter.read, `${route.method} ${route.path} read the body`).toBe(0);
    }
  });

  it('stops reading an undeclared (chunked) 8 MiB body at its limit and answers 413', async () => {
    for (const route of bodyRoutes()) {
      const { stream, counter } = countedBody(EIGHT_MIB);
      const res = await send(route, stream);
      await expectRefusedInWords(route, res);
      expect(counter.read, `${route.method} ${route.path} read past any limit`).toBeLessThanOrEqual(
        LARGEST_LIMIT + 2 * CHUNK,
      );
    }
  });

  it('a small body still reaches the handler (the limit is not a wall)', async () => {
    const small = (text: string) =>
      new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode(text)), c.close()) });
    const token = await send(
      { method: 'POST', path: '/oauth/token', any: false },
      small('grant_type=authorization_code'),
      29,
    );
    expect(token.status).toBe(400);
    expect(await token.json()).toEqual({ error: 'invalid_request', error_description: 'client_id is required.' });
    expect(BODY_LIMIT_BYTES).toBeLessThan(LARGEST_LIMIT);
  });
});
