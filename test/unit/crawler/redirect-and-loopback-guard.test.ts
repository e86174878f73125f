// The guard against real sockets: a loopback fixture must see zero requests while allowPrivate is off,
// and a redirect from an allowed (in-memory, never contacted) public host to loopback is refused.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../src/crawler/pinned-fetch';
import { crawlPage } from '../../../src/crawler/index';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { inMemoryFetch, PUBLIC_IPV4, tableResolver } from './network-doubles';

const PAGE = `<html lang="en"><head><title>Fixture tool</title><meta name="description" content="A fixture.">
  <link rel="icon" href="/icon.png"></head><body></body></html>`;
let site: FixtureSite;

beforeAll(async () => {
  site = await startFixtureSite({ '/': htmlPage(PAGE) });
});
afterAll(async () => {
  await site.close();
});
beforeEach(() => {
  site.hits.length = 0;
});

describe('a loopback fixture while allowPrivate is off', () => {
  it.each(['', '/'])('records zero hits for every spelling of its address (path "%s")', async (path) => {
    const { resolver } = tableResolver({ localhost: ['127.0.0.1'], 'fixture.test': ['127.0.0.1'] });
    const fetch = createPinnedFetch({ resolver, allowPrivate: false });
    const spellings = [
      `${site.origin}${path}`,
      `http://localhost:${site.port}${path}`,
      `http://localhost.:${site.port}${path}`,
      `http://2130706433:${site.port}${path}`,
      `http://0x7f.1:${site.port}${path}`,
      `http://0177.0.0.1:${site.port}${path}`,
      `http://127.1:${site.port}${path}`,
      `http://fixture.test:${site.port}${path}`,
    ];
    for (const url of spellings) {
      const result = await crawlPage(url, { fetch, resolver, allowPrivate: false });
      // A name on a refused port is refused before its lookup, so its kind is the port's.
      const kind = url.startsWith('http://fixture.test:') ? 'blocked_port' : 'blocked_address';
      expect(result, url).toMatchObject({ ok: false, error: { kind } });
    }
    expect(site.hits).toEqual([]);
  });

  it('is crawled, metadata and all, once allowPrivate is on', async () => {
    const { resolver } = tableResolver({ localhost: ['127.0.0.1'] });
    const fetch = createPinnedFetch({ resolver, allowPrivate: true });
    const result = await crawlPage(`http://localhost:${site.port}/`, { fetch, resolver, allowPrivate: true });
    expect(result).toEqual({
      ok: true,
      status: 200,
      finalUrl: `http://localhost:${site.port}/`,
      metadata: {
        title: 'Fixture tool',
        description: 'A fixture.',
        imageUrl: null,
        iconUrl: `http://localhost:${site.port}/icon.png`,
        canonicalUrl: null,
        finalUrl: `http://localhost:${site.port}/`,
        language: 'en',
      },
    });
    expect(site.hits.map((hit) => hit.path)).toEqual(['/']);
  });

  it('works with the plain global fetch too when allowPrivate is on', async () => {
    const { resolver } = tableResolver({});
    const result = await crawlPage(`${site.origin}/`, { fetch: globalThis.fetch, resolver, allowPrivate: true });
    expect(result).toMatchObject({ ok: true, metadata: { title: 'Fixture tool' } });
  });
});

describe('redirects are re-checked at every hop', () => {
  const redirectFrom = (location: string) => () => new Response(null, { status: 302, headers: { location } });

  it.each([
    'http://127.0.0.1/',
    'http://localhost/',
    'http://[::1]/',
    'http://2130706433/admin',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::ffff:10.0.0.1]/',
    'http://rebind.test/',
    'http://public.test:8080/',
  ])('a redirect from public.test to %s is refused before any request', async (location) => {
    const { resolver } = tableResolver({ 'public.test': [PUBLIC_IPV4], 'rebind.test': ['127.0.0.1'] });
    const network = inMemoryFetch({ 'http://public.test/': redirectFrom(location) });
    const result = await crawlPage('http://public.test/', { fetch: network.fetch, resolver, allowPrivate: false });
    expect(result).toMatchObject({
      ok: false,
      error: { kind: location.includes(':8080') ? 'blocked_port' : 'blocked_address' },
    });
    expect(network.calls).toEqual(['http://public.test/']);
  });

  it('a redirect from public.test to the loopback fixture leaves the fixture untouched', async () => {
    const { resolver } = tableResolver({ 'public.test': [PUBLIC_IPV4] });
    const realLoopback = createPinnedFetch({ resolver, allowPrivate: false });
    for (const location of [`${site.origin}/`, `http://localhost:${site.port}/`]) {
      const network = inMemoryFetch({ 'http://public.test/': redirectFrom(location) }, realLoopback);
      const result = await crawlPage('http://public.test/', { fetch: network.fetch, resolver, allowPrivate: false });
      expect(result).toMatchObject({ ok: false, error: { kind: 'blocked_address' } });
      expect(network.calls).toEqual(['http://public.test/']);
    }
    expect(site.hits).toEqual([]);
  });

  it('a relative redirect on an allowed host is followed and its page read (in memory)', async () => {
    const { resolver, asked } = tableResolver({ 'public.test': [PUBLIC_IPV4] });
    const network = inMemoryFetch({
      'http://public.test/': redirectFrom('/home?x=1'),
      'http://public.test/home?x=1': () =>
        new Response('<title>Home</title>', { headers: { 'content-type': 'text/html' } }),
    });
    const result = await crawlPage('http://public.test/', { fetch: network.fetch, resolver });
    expect(result).toMatchObject({
      ok: true,
      finalUrl: 'http://public.test/home?x=1',
      metadata: { title: 'Home', iconUrl: 'http://public.test/favicon.ico' },
    });
    expect(asked).toEqual(['public.test', 'public.test']); // checked again at the second hop
  });
});
