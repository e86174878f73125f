// GET /go/{slug} (docs/stats.md "Clicks"): a redirect to the stored URL of that live tool and nowhere else, with
// ref=tooldir added after the tool's own query; the tool page and the cards link through it with rel="noopener".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { outboundTarget } from '../../../src/stats/outbound-link';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';
import { statsHarness } from '../../helpers/stats-harness';

let t: TestApp;
let h: ReturnType<typeof statsHarness>;
beforeAll(async () => {
  t = await createTestApp();
  h = statsHarness(t);
});
afterAll(() => t?.close());

async function toolWithUrl(url: string, seed: { isFeature?: boolean } = {}) {
  const [tool] = await seedTools(t.deps.db, [{ name: `Outbound ${crypto.randomUUID().slice(0, 6)}`, ...seed }]);
  await queryRows(t.deps.db, sql`UPDATE sites SET url = ${url} WHERE id = ${tool!.id}::uuid`);
  return tool!;
}

describe('the redirect', () => {
  it('goes to the stored URL with ref=tooldir, keeping its path, query (byte for byte) and fragment', async () => {
    const cases: [string, string][] = [
      ['https://acme.example', 'https://acme.example/?ref=tooldir'],
      ['https://acme.example/app/', 'https://acme.example/app/?ref=tooldir'],
      ['https://acme.example/p?lang=de&x=%7E1', 'https://acme.example/p?lang=de&x=%7E1&ref=tooldir'],
      ['https://acme.example/p?utm_source=x#pricing', 'https://acme.example/p?utm_source=x&ref=tooldir#pricing'],
      ['http://acme.example:8080/?', 'http://acme.example:8080/?ref=tooldir'],
      // The tool's own ref stays: its query is kept as stored.
      ['https://acme.example/?ref=partner', 'https://acme.example/?ref=partner'],
    ];
    for (const [stored, expected] of cases) {
      const tool = await toolWithUrl(stored);
      const res = await h.visit(`/go/${tool.slug}`);
      expect(res.status, stored).toBe(302);
      expect(res.headers.get('location'), stored).toBe(expected);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('ignores every parameter and header: nothing but the stored URL is ever a target', async () => {
    const tool = await toolWithUrl('https://acme-safe.example/');
    for (const query of [
      '?url=https://evil.example',
      '?to=//evil.example',
      '?next=https%3A%2F%2Fevil.example',
      '?ref=evil',
    ]) {
      const res = await h.visit(`/go/${tool.slug}${query}`, {
        headers: { referer: 'https://evil.example/', 'x-forwarded-host': 'evil.example' },
      });
      expect(res.status, query).toBe(302);
      expect(res.headers.get('location'), query).toBe('https://acme-safe.example/?ref=tooldir');
    }
  });

  it('answers the 404 page for an unknown slug, a tool that is not live, extra path segments and odd slugs', async () => {
    const [pending] = await seedTools(t.deps.db, [
      { name: `Outbound Pending ${crypto.randomUUID().slice(0, 6)}`, status: 'pending_review' },
    ]);
    const live = await toolWithUrl('https://acme-live.example/');
    for (const path of [
      '/go/no-such-tool',
      `/go/${pending!.slug}`,
      `/go/${live.slug}/https://evil.example`,
      '/go/%2F%2Fevil.example',
      '/go/..%2F..%2Fadmin',
      `/go/${live.slug.toUpperCase()}`,
      '/go/',
    ]) {
      const res = await h.visit(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location'), path).toBeNull();
    }
  });

  it('has no target for a stored URL that is not http(s)', async () => {
    const tool = await toolWithUrl('javascript:alert(1)');
    expect((await h.visit(`/go/${tool.slug}`)).status).toBe(404);
    for (const stored of ['javascript:alert(1)', 'data:text/html,x', 'ftp://acme.example/', 'not a url'])
      expect(outboundTarget(stored), stored).toBeUndefined();
  });
});

describe('the links to it', () => {
  it('the tool page and every card link to /go/{slug} with rel noopener (nofollow unless featured or sponsored)', async () => {
    const plain = await toolWithUrl('https://plain-link.example/');
    const featured = await toolWithUrl('https://featured-link.example/', { isFeature: true });
    const page = await (await h.visit(`/tools/${plain.slug}`)).text();
    expect(page).toContain(
      `<a class="button primary" href="/go/${plain.slug}" rel="noopener nofollow" target="_blank">Visit ${plain.name}</a>`,
    );
    expect(page).not.toContain('href="https://plain-link.example'); // (the JSON-LD still names the website)
    const featuredPage = await (await h.visit(`/tools/${featured.slug}`)).text();
    expect(featuredPage).toContain(
      `<a class="button primary" href="/go/${featured.slug}" rel="noopener" target="_blank">Visit ${featured.name}</a>`,
    );
    const home = await (await h.visit('/')).text();
    expect(home).toContain(
      `<a href="/go/${plain.slug}" rel="noopener nofollow" target="_blank">Visit ${plain.name}</a>`,
    );
    expect(home).toContain(`<a href="/go/${featured.slug}" rel="noopener" target="_blank">Visit ${featured.name}</a>`);
    expect(home).not.toMatch(/href="https?:\/\/(plain|featured)-link\.example/);
  });
});
