// Limits and failure modes, each against a loopback fixture that exceeds them (allowPrivate on).
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../src/crawler/pinned-fetch';
import { crawlPage, type CrawlOptions } from '../../../src/crawler/index';
import { htmlPage, redirectTo, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { tableResolver } from './network-doubles';

const MiB = 1024 * 1024;
let site: FixtureSite;
let options: CrawlOptions;

beforeAll(async () => {
  site = await startFixtureSite();
  const { resolver } = tableResolver({});
  // URLs in this file are 127.0.0.1 literals: the resolver is never needed.
  options = {
    fetch: createPinnedFetch({ resolver, allowPrivate: true }),
    resolver,
    allowPrivate: true,
    timeoutMs: 2_000,
  };

  for (let hop = 1; hop <= 6; hop++)
    site.route(`/chain${hop}`, redirectTo(hop === 6 ? '/landing' : `/chain${hop + 1}`));
  site.route('/landing', htmlPage('<title>Landed</title>'));
  site.route('/three-mib', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }); // chunked: no Content-Length to trust
    const chunk = Buffer.alloc(64 * 1024, 'a');
    for (let written = 0; written < 3 * MiB; written += chunk.length) response.write(chunk);
    response.end();
  });
  site.route('/three-mib-declared', (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html', 'content-length': String(3 * MiB) })
      .end(Buffer.alloc(3 * MiB, 'a'));
  });
  const bomb = gzipSync(Buffer.alloc(3 * MiB, ' '));
  site.route('/gzip-bomb', (_request, response) => {
    response
      .writeHead(200, {
        'content-type': 'text/html',
        'content-encoding': 'gzip',
        'content-length': String(bomb.length),
      })
      .end(bomb);
  });
  const smallGzip = gzipSync(Buffer.from('<title>Compressed</title>'));
  site.route('/gzip-small', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(smallGzip);
  });
  site.route('/just-under', htmlPage(`<title>Big but fine</title>${' '.repeat(2 * MiB - 100)}`));
  site.route('/stall-headers', () => undefined); // never answers
  site.route('/stall-body', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.write('<html><head><title>Half'); // and then nothing
  });
  site.route(
    '/json',
    (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"title":"x"}'),
  );
  site.route(
    '/png',
    (_request, response) => void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(10)),
  );
  site.route('/untyped', (_request, response) => void response.writeHead(200, {}).end('<title>no type</title>'));
  site.route(
    '/xhtml',
    htmlPage('<html lang="de"><title>XHTML</title></html>', { 'content-type': 'application/xhtml+xml; charset=utf-8' }),
  );
  site.route('/latin1', (_request, response) => {
    response
      .writeHead(200, { 'content-type': 'text/html; charset=windows-1252' })
      .end(
        Buffer.from([
          0x3c, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x3e, 0x43, 0x61, 0x66, 0xe9, 0x3c, 0x2f, 0x74, 0x69, 0x74, 0x6c, 0x65,
          0x3e,
        ]),
      );
  });
  site.route(
    '/server-error',
    (_request, response) => void response.writeHead(500, { 'content-type': 'text/html' }).end('<title>oops</title>'),
  );
  site.route('/redirect-without-location', (_request, response) => void response.writeHead(302).end());
  site.route('/redirect-to-file', redirectTo('file:///etc/passwd'));
});

afterAll(async () => {
  await site.close();
});

const hitsOn = (prefix: string) => site.hits.filter((hit) => hit.path.startsWith(prefix)).length;

describe('crawlPage limits (loopback fixture, allowPrivate on)', () => {
  it('follows 5 redirects', async () => {
    const result = await crawlPage(`${site.origin}/chain2`, options);
    expect(result).toMatchObject({
      ok: true,
      finalUrl: `${site.origin}/landing`,
      status: 200,
      metadata: { title: 'Landed' },
    });
  });

  it('refuses a 6th redirect without requesting its target', async () => {
    const before = site.hits.length;
    const result = await crawlPage(`${site.origin}/chain1`, options);
    expect(result).toMatchObject({ ok: false, error: { kind: 'too_many_redirects' } });
    expect(site.hits.slice(before).map((hit) => hit.path)).toEqual([
      '/chain1',
      '/chain2',
      '/chain3',
      '/chain4',
      '/chain5',
      '/chain6',
    ]);
  });

  it('stops a streamed 3 MiB body', async () => {
    expect(await crawlPage(`${site.origin}/three-mib`, options)).toMatchObject({
      ok: false,
      error: { kind: 'too_large' },
    });
  });

  it('refuses a declared 3 MiB body', async () => {
    expect(await crawlPage(`${site.origin}/three-mib-declared`, options)).toMatchObject({
      ok: false,
      error: { kind: 'too_large' },
    });
  });

  it('counts bytes after decompression: a small gzip body that inflates past 2 MiB is too large', async () => {
    expect(await crawlPage(`${site.origin}/gzip-bomb`, options)).toMatchObject({
      ok: false,
      error: { kind: 'too_large' },
    });
  });

  it('reads a gzip body that stays under the cap', async () => {
    expect(await crawlPage(`${site.origin}/gzip-small`, options)).toMatchObject({
      ok: true,
      metadata: { title: 'Compressed' },
    });
  });

  it('accepts a body just under 2 MiB', async () => {
    expect(await crawlPage(`${site.origin}/just-under`, options)).toMatchObject({
      ok: true,
      metadata: { title: 'Big but fine' },
    });
  });

  it('times out on a server that never answers', async () => {
    const result = await crawlPage(`${site.origin}/stall-headers`, { ...options, timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });

  it('times out on a body that stalls half-way (the deadline covers the body)', async () => {
    const result = await crawlPage(`${site.origin}/stall-body`, { ...options, timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, error: { kind: 'timeout' } });
  });

  it.each(['/json', '/png', '/untyped'])('refuses non-HTML content at %s', async (path) => {
    expect(await crawlPage(`${site.origin}${path}`, options)).toMatchObject({
      ok: false,
      error: { kind: 'not_html', status: 200 },
    });
  });

  it('accepts application/xhtml+xml', async () => {
    expect(await crawlPage(`${site.origin}/xhtml`, options)).toMatchObject({
      ok: true,
      metadata: { title: 'XHTML', language: 'de' },
    });
  });

  it('decodes the charset named in Content-Type', async () => {
    expect(await crawlPage(`${site.origin}/latin1`, options)).toMatchObject({ ok: true, metadata: { title: 'Café' } });
  });

  it.each([
    ['/missing', 'http_error', 404],
    ['/server-error', 'http_error', 500],
    ['/redirect-without-location', 'http_error', 302],
  ] as const)('reports %s as %s', async (path, kind, status) => {
    expect(await crawlPage(`${site.origin}${path}`, options)).toMatchObject({ ok: false, error: { kind, status } });
  });

  it('refuses a redirect to a non-http scheme', async () => {
    expect(await crawlPage(`${site.origin}/redirect-to-file`, options)).toMatchObject({
      ok: false,
      error: { kind: 'bad_url' },
    });
  });

  it('reports a refused connection as a network error', async () => {
    const closed = await startFixtureSite();
    const origin = closed.origin;
    await closed.close();
    expect(await crawlPage(`${origin}/`, options)).toMatchObject({ ok: false, error: { kind: 'network_error' } });
  });

  it('sends a crawler user agent and asks for HTML', async () => {
    const before = site.hits.length;
    await crawlPage(`${site.origin}/landing`, { ...options, userAgent: 'tooldir-test-agent' });
    const hit = site.hits[before];
    expect(hit?.headers['user-agent']).toBe('tooldir-test-agent');
    expect(hit?.headers.accept).toContain('text/html');
    expect(hitsOn('/landing')).toBeGreaterThan(0);
  });
});

describe('crawlPage cancellation', () => {
  it('reports a crawl the caller aborts as a network error, not a timeout', async () => {
    const controller = new AbortController();
    const pending = crawlPage(`${site.origin}/stall-headers`, {
      ...options,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    controller.abort();
    expect(await pending).toMatchObject({
      ok: false,
      error: { kind: 'network_error', detail: 'the crawl was aborted' },
    });
  });
});
