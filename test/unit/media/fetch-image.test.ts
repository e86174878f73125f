// Images are fetched like pages: through the crawler's safe fetch (address policy and redirect checks at every
// hop), at most 2 MiB, and kept only when their BYTES are an image we serve. The fixture is a loopback server;
// every other target goes to doubles that fail the test (test/unit/crawler/network-doubles.ts).
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryMediaStore } from '../../../src/adapters/media/memory';
import { createPinnedFetch } from '../../../src/crawler/pinned-fetch';
import { loadConfig } from '../../../src/config';
import { createLogger } from '../../../src/log';
import { fetchImage } from '../../../src/media/fetch-image';
import { fetchSiteMedia } from '../../../src/media/fetch-site-media';
import { startFixtureSite, type FixtureHandler, type FixtureSite } from '../../helpers/fixture-site';
import {
  bigPngBytes,
  gifOfSize,
  HTML,
  icoBytes,
  icoHolding,
  jpegOfSize,
  pngBytes,
  pngOfSize,
  SVG,
  webpOfSize,
} from '../../helpers/image-bytes';
import { testEnv } from '../../helpers/test-app';
import { inMemoryFetch, PUBLIC_IPV4, tableResolver } from '../crawler/network-doubles';

const MiB = 1024 * 1024;
const PNG = pngBytes(42);
const ICO = icoBytes();

/** Answers `body` with a Content-Type of our choosing: the type must play no part in the verdict. */
const serve =
  (body: Uint8Array | string, contentType: string, extra: Record<string, string> = {}): FixtureHandler =>
  (_request, response) => {
    response
      .writeHead(200, { 'content-type': contentType, ...extra })
      .end(typeof body === 'string' ? body : Buffer.from(body));
  };

/** Streams `size` bytes without a Content-Length, so the cap is enforced while reading. */
const streamed =
  (bytes: Uint8Array): FixtureHandler =>
  (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png', 'transfer-encoding': 'chunked' });
    for (let i = 0; i < bytes.length; i += 64 * 1024) response.write(Buffer.from(bytes.subarray(i, i + 64 * 1024)));
    response.end();
  };

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({
    '/og.png': serve(PNG, 'text/plain'),
    '/favicon.ico': serve(ICO, 'application/octet-stream'),
    '/exactly-2mib.png': serve(bigPngBytes(2 * MiB), 'image/png'),
    '/too-big.png': serve(bigPngBytes(2 * MiB + 1), 'image/png'),
    '/too-big-streamed.png': streamed(bigPngBytes(2 * MiB + 1)),
    '/logo.svg': serve(SVG, 'image/svg+xml'),
    '/svg-named.png': serve(SVG, 'image/png'),
    '/page-named.png': serve(HTML, 'image/png'),
    '/gone.png': (_request, response) => void response.writeHead(404).end(),
    // Small files declaring huge images: decompression bombs, whatever their format.
    '/largest.png': serve(pngOfSize(4096, 4096), 'image/png'),
    '/wide.png': serve(pngOfSize(4097, 1), 'image/png'),
    '/bomb.png': serve(pngOfSize(65_535, 65_535), 'image/png'),
    '/bomb.jpg': serve(jpegOfSize(30_000, 30_000), 'image/jpeg'),
    '/bomb.gif': serve(gifOfSize([100, 100], [0, 0, 60_000, 60_000]), 'image/gif'),
    '/bomb.webp': serve(webpOfSize('VP8X', 16_000, 16_000), 'image/webp'),
    '/bomb.ico': serve(icoHolding({ png: pngOfSize(100_000, 100_000) }), 'image/x-icon'),
    '/no-frame.jpg': serve(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xd9]), 'image/jpeg'),
  });
});
afterAll(() => site.close());
beforeEach(() => {
  site.hits.length = 0;
});

/** allowPrivate on (as the pipeline tests run): loopback is reachable, nothing else is. */
function loopbackOnly() {
  const { resolver, asked } = tableResolver({}); // any name lookup fails the test: every URL here is an IP literal
  const network = inMemoryFetch({}, globalThis.fetch);
  return { resolver, asked, fetch: network.fetch, calls: network.calls };
}

const fetchFromFixture = (path: string) => {
  const transport = loopbackOnly();
  return fetchImage(`${site.origin}${path}`, { ...transport, allowPrivate: true, signal: AbortSignal.timeout(30_000) });
};

describe('fetchImage from a loopback fixture', () => {
  it('keeps a PNG served as text/plain and an ICO served as octet-stream: the bytes decide', async () => {
    expect(await fetchFromFixture('/og.png')).toEqual({ ok: true, bytes: PNG, extension: 'png' });
    expect(await fetchFromFixture('/favicon.ico')).toEqual({ ok: true, bytes: ICO, extension: 'ico' });
  });

  it('keeps an image of exactly 2 MiB and refuses one byte more, declared or streamed', async () => {
    expect(await fetchFromFixture('/exactly-2mib.png')).toMatchObject({ ok: true, extension: 'png' });
    expect(await fetchFromFixture('/too-big.png')).toMatchObject({ ok: false, error: { kind: 'too_large' } });
    expect(await fetchFromFixture('/too-big-streamed.png')).toMatchObject({ ok: false, error: { kind: 'too_large' } });
  });

  it('refuses an SVG, whatever it is served as', async () => {
    expect(await fetchFromFixture('/logo.svg')).toMatchObject({ ok: false, error: { kind: 'svg_refused' } });
    expect(await fetchFromFixture('/svg-named.png')).toMatchObject({ ok: false, error: { kind: 'svg_refused' } });
  });

  it('refuses an HTML page named .png and served as image/png', async () => {
    expect(await fetchFromFixture('/page-named.png')).toMatchObject({ ok: false, error: { kind: 'not_an_image' } });
  });

  it('keeps 4096×4096 and refuses a side above it, read from the header before anything decodes the image', async () => {
    expect(await fetchFromFixture('/largest.png')).toMatchObject({ ok: true, extension: 'png' });
    for (const path of ['/wide.png', '/bomb.png', '/bomb.jpg', '/bomb.gif', '/bomb.webp', '/bomb.ico']) {
      const result = await fetchFromFixture(path);
      expect(result, path).toMatchObject({
        ok: false,
        error: { kind: 'too_many_pixels', detail: expect.stringContaining('at most 4096×4096') },
      });
    }
    expect(await fetchFromFixture('/no-frame.jpg')).toMatchObject({ ok: false, error: { kind: 'not_an_image' } });
  });

  it('refuses an HTTP error', async () => {
    expect(await fetchFromFixture('/gone.png')).toMatchObject({
      ok: false,
      error: { kind: 'http_error', status: 404 },
    });
  });
});

describe('redirects to private addresses', () => {
  // A public CDN host (resolved by the table, served from memory, never contacted) redirects the image inward.
  const redirectFrom = (location: string) => () => new Response(null, { status: 302, headers: { location } });

  it.each([
    ['the loopback fixture', () => `${site.origin}/og.png`],
    ['a private IPv4', () => 'http://10.1.2.3/og.png'],
    ['link-local metadata', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a name resolving to a private address', () => 'http://intranet.example/og.png'],
    ['IPv6 loopback', () => 'http://[::1]/og.png'],
  ])('refuses a redirect to %s before any packet, with allowPrivate off', async (_what, target) => {
    const { resolver } = tableResolver({ 'cdn.example': [PUBLIC_IPV4], 'intranet.example': ['192.168.1.20'] });
    // No loopback hand-off at all: the double answers cdn.example from memory and fails on anything else.
    const network = inMemoryFetch({ 'https://cdn.example/og.png': redirectFrom(target()) });
    const result = await fetchImage('https://cdn.example/og.png', {
      fetch: network.fetch,
      resolver,
      allowPrivate: false,
      signal: AbortSignal.timeout(30_000),
    });
    expect(result).toMatchObject({ ok: false, error: { kind: 'blocked_address' } });
    expect(network.calls).toEqual(['https://cdn.example/og.png']);
    expect(site.hits).toEqual([]);
  });

  it('refuses the loopback fixture itself with allowPrivate off, with zero hits', async () => {
    const { resolver } = tableResolver({ localhost: ['127.0.0.1'] });
    const fetch = createPinnedFetch({ resolver, allowPrivate: false });
    for (const url of [
      `${site.origin}/og.png`,
      `http://localhost:${site.port}/og.png`,
      `http://2130706433:${site.port}/og.png`,
    ]) {
      expect(
        await fetchImage(url, { fetch, resolver, allowPrivate: false, signal: AbortSignal.timeout(30_000) }),
        url,
      ).toMatchObject({
        ok: false,
        error: { kind: 'blocked_address' },
      });
    }
    expect(site.hits).toEqual([]);
  });
});

describe('fetchSiteMedia (the crawl step)', () => {
  const deps = (store = createMemoryMediaStore()) => {
    const transport = loopbackOnly();
    return {
      store,
      transport,
      deps: {
        crawl: { resolver: transport.resolver, fetch: transport.fetch },
        config: loadConfig(testEnv({ CRAWL_ALLOW_PRIVATE: 'true' })),
        media: store,
        log: createLogger('silent'),
      },
    };
  };
  const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  it('stores the image and the icon under their content hash and returns their names', async () => {
    const { deps: d, store } = deps();
    const media = await fetchSiteMedia(
      d,
      { imageUrl: `${site.origin}/og.png`, iconUrl: `${site.origin}/favicon.ico` },
      { siteId: 'x' },
    );
    expect(media).toEqual({ image: `${sha(PNG)}.png`, icon: `${sha(ICO)}.ico` });
    expect(store.objects.get(`${sha(PNG)}.png`)).toEqual({ bytes: PNG, contentType: 'image/png' });
    expect(store.objects.get(`${sha(ICO)}.ico`)).toEqual({ bytes: ICO, contentType: 'image/x-icon' });
  });

  it('fetches an image used as both og:image and icon once, and stores it once', async () => {
    const { deps: d, store } = deps();
    const url = `${site.origin}/og.png`;
    expect(await fetchSiteMedia(d, { imageUrl: url, iconUrl: url }, { siteId: 'x' })).toEqual({
      image: `${sha(PNG)}.png`,
      icon: `${sha(PNG)}.png`,
    });
    expect(site.hits.map((hit) => hit.path)).toEqual(['/og.png']);
    expect(store.objects.size).toBe(1);
  });

  it('leaves a slot null (the placeholder) for each refused image and never throws', async () => {
    const { deps: d, store } = deps();
    expect(
      await fetchSiteMedia(
        d,
        { imageUrl: `${site.origin}/too-big.png`, iconUrl: `${site.origin}/logo.svg` },
        { siteId: 'x' },
      ),
    ).toEqual({ image: null, icon: null });
    expect(
      await fetchSiteMedia(d, { imageUrl: `${site.origin}/page-named.png`, iconUrl: null }, { siteId: 'x' }),
    ).toEqual({ image: null, icon: null });
    expect(
      await fetchSiteMedia(
        d,
        { imageUrl: `${site.origin}/bomb.png`, iconUrl: `${site.origin}/bomb.ico` },
        { siteId: 'x' },
      ),
    ).toEqual({ image: null, icon: null });
    expect(store.objects.size).toBe(0);
  });

  it('keeps the crawl going when the store fails: null, not an exception', async () => {
    const broken = { ...createMemoryMediaStore(), put: async () => Promise.reject(new Error('bucket down')) };
    const { deps: d } = deps(broken as unknown as ReturnType<typeof createMemoryMediaStore>);
    expect(await fetchSiteMedia(d, { imageUrl: `${site.origin}/og.png`, iconUrl: null }, { siteId: 'x' })).toEqual({
      image: null,
      icon: null,
    });
  });
});
