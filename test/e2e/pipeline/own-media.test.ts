// Own media end to end: a crawl keeps the page's og:image and icon as /media/{sha256}.{ext} (fetched from a
// loopback fixture through the pipeline's loopback-only transport), the API and the pages name only those
// URLs, and the media route serves them with immutable caching, nosniff and a CSP that loads nothing.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMediaStore } from '../../../src/adapters/media/memory';
import { htmlPage, startFixtureSite, type FixtureHandler, type FixtureSite } from '../../helpers/fixture-site';
import { HTML, icoBytes, pngBytes, SVG } from '../../helpers/image-bytes';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';
import { createTestApp } from '../../helpers/test-app';

const PNG = pngBytes(1234);
const ICO = icoBytes();
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const PNG_NAME = `${sha(PNG)}.png`;
const ICO_NAME = `${sha(ICO)}.ico`;
const MEDIA_URL = /^http:\/\/tooldir\.test\/media\/[0-9a-f]{64}\.(png|jpg|webp|gif|ico)$/;

const bytes =
  (body: Uint8Array | string, contentType: string): FixtureHandler =>
  (_request, response) =>
    void response
      .writeHead(200, { 'content-type': contentType })
      .end(typeof body === 'string' ? body : Buffer.from(body));

const page = (title: string, image: string, icon: string) =>
  htmlPage(
    `<html><head><title>${title}</title><meta property="og:image" content="${image}"><link rel="icon" href="${icon}"></head><body></body></html>`,
  );

let t: PipelineApp;
let fixture: FixtureSite;
let withMedia: { slug: string; id: string };
let withoutMedia: { slug: string; id: string };

beforeAll(async () => {
  t = await createPipelineApp();
  fixture = await startFixtureSite({
    '/og.png': bytes(PNG, 'application/octet-stream'),
    '/favicon.ico': bytes(ICO, 'image/vnd.microsoft.icon'),
    '/logo.svg': bytes(SVG, 'image/svg+xml'),
    '/fake.png': bytes(HTML, 'image/png'),
    '/good': page('Good Media Tool', '/og.png', '/favicon.ico'),
    '/bad': page('Bad Media Tool', '/logo.svg', '/fake.png'),
  });
  const m = await t.member('member');
  const good = await t.submit(m.key, { name: 'Good Media Tool', url: `${fixture.origin}/good` });
  const bad = await t.submit(m.key, { name: 'Bad Media Tool', url: `${fixture.origin}/bad` });
  await t.settle();
  const [g, b] = [await t.site(good), await t.site(bad)];
  expect([g.status, b.status]).toEqual(['live', 'live']);
  withMedia = { slug: g.slug!, id: good };
  withoutMedia = { slug: b.slug!, id: bad };
});
afterAll(async () => {
  await t?.close();
  await fixture?.close();
  expect(networkViolations).toEqual([]);
});

describe('the crawl step', () => {
  it('stores media names and keeps the remote sources for operators only', async () => {
    expect((await t.site(withMedia.id)).metadata).toMatchObject({
      image: PNG_NAME,
      icon: ICO_NAME,
      imageSource: `${fixture.origin}/og.png`,
      iconSource: `${fixture.origin}/favicon.ico`,
      mediaFetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // An SVG and an HTML page named .png are not kept; the crawl still succeeded.
    expect((await t.site(withoutMedia.id)).metadata).toMatchObject({
      image: null,
      icon: null,
      imageSource: `${fixture.origin}/logo.svg`,
    });
  });
});

describe('the API', () => {
  it('names only /media URLs of this origin in image and icon', async () => {
    const good = await (await t.request(`/api/v1/tools/${withMedia.slug}`)).json();
    expect(good).toMatchObject({
      image: `http://tooldir.test/media/${PNG_NAME}`,
      icon: `http://tooldir.test/media/${ICO_NAME}`,
    });
    const bad = await (await t.request(`/api/v1/tools/${withoutMedia.slug}`)).json();
    expect(bad).toMatchObject({ image: null, icon: null });
    for (const tool of [good, bad]) {
      for (const value of [tool.image, tool.icon]) if (value !== null) expect(value).toMatch(MEDIA_URL);
      // The tool's own address is its `url` field and nothing else.
      expect(JSON.stringify({ ...tool, url: undefined })).not.toContain(fixture.origin.replace('http://', ''));
    }
  });
});

describe('the pages', () => {
  it("show our copies and the placeholder, never the tool server, under img-src 'self' data:", async () => {
    for (const path of ['/', `/tools/${withMedia.slug}`, `/tools/${withoutMedia.slug}`]) {
      const res = await t.request(path);
      expect(res.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
      const text = await res.text();
      // The tool's address appears only as the outbound "Visit" link, never as something the browser loads.
      expect(text, path).not.toMatch(new RegExp(`(src|content)="[^"]*127\\.0\\.0\\.1:${fixture.port}`));
      const sources = [...text.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((match) => match[1]!);
      expect(sources.length, path).toBeGreaterThan(0);
      for (const src of sources)
        expect(src, path).toMatch(
          /^(\/media\/[0-9a-f]{64}\.(png|ico)|\/badge\/[a-z0-9-]+\.svg|data:image\/svg\+xml,[^"]+)$/,
        );
    }
    const good = await (await t.request(`/tools/${withMedia.slug}`)).text();
    expect(good).toContain(`src="/media/${PNG_NAME}"`);
    expect(good).toContain(`src="/media/${ICO_NAME}"`);
    expect(good).toContain(`<meta property="og:image" content="http://tooldir.test/media/${PNG_NAME}">`);
    const bad = await (await t.request(`/tools/${withoutMedia.slug}`)).text();
    expect(bad).not.toContain('/media/');
    expect(bad).toContain('src="data:image/svg+xml,');
  });
});

describe('GET /media/{sha256}.{ext}', () => {
  const MEDIA_HEADERS = {
    'cache-control': 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'",
  };

  it('serves the stored bytes with the type from the name, immutable caching, nosniff and an empty CSP', async () => {
    for (const [name, body, type] of [
      [PNG_NAME, PNG, 'image/png'],
      [ICO_NAME, ICO, 'image/x-icon'],
    ] as const) {
      const res = await t.request(`/media/${name}`);
      expect(res.status).toBe(200);
      expect(Object.fromEntries(res.headers)).toMatchObject({
        ...MEDIA_HEADERS,
        'content-type': type,
        'content-length': String(body.length),
        etag: `"${name.slice(0, 64)}"`,
      });
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(body);
    }
  });

  it('answers HEAD without a body and a matching If-None-Match with 304', async () => {
    const head = await t.request(`/media/${PNG_NAME}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(PNG.length));
    expect(await head.text()).toBe('');
    for (const tag of [`"${sha(PNG)}"`, `W/"${sha(PNG)}"`, `"x", "${sha(PNG)}"`, '*']) {
      const cached = await t.request(`/media/${PNG_NAME}`, { headers: { 'if-none-match': tag } });
      expect(cached.status, tag).toBe(304);
      expect(cached.headers.get('cache-control')).toBe(MEDIA_HEADERS['cache-control']);
    }
    expect((await t.request(`/media/${PNG_NAME}`, { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it.each([
    `/media/${'0'.repeat(64)}.png`, // well-formed, not stored
    `/media/${sha(PNG)}.ico`, // the right hash under another extension
    `/media/${sha(PNG)}.svg`,
    `/media/${sha(PNG).toUpperCase()}.png`,
    `/media/${sha(PNG)}`,
    `/media/${sha(PNG)}.png.html`,
    '/media/..%2F..%2Fpglite%2FPG_VERSION',
    '/media/a/b.png',
    '/media/',
    `/media/${'%00'.repeat(3)}.png`,
    `/media/${'f'.repeat(5000)}.png`,
  ])('answers %s with 404 in the error shape', async (path) => {
    const res = await t.request(path);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    expect(res.headers.get('cache-control') ?? '').not.toContain('immutable');
  });

  it('answers 503 in the error shape, never cached, when the store fails', async () => {
    const broken = {
      ...createMemoryMediaStore(),
      get: () => Promise.reject(new Error('bucket down')),
      head: () => Promise.reject(new Error('bucket down')),
    };
    const app = await createTestApp({ overrides: { media: broken } });
    try {
      const res = await app.request(`/media/${PNG_NAME}`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: 'service_unavailable' } });
      expect(res.headers.get('cache-control') ?? '').not.toContain('immutable');
    } finally {
      await app.close();
    }
  });
});
