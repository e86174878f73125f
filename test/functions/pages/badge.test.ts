// GET /badge/{slug}.svg and the tool page's embed box, through the app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTools } from '../../helpers/live-tools';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Parses the SVG as XML in the strictest parser we have: Node's own has none, so a well-formedness check by hand. */
function expectWellFormedSvg(svg: string) {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  // Every '<' opens a tag of our own vocabulary: a name can never open one.
  const tags = [...svg.matchAll(/<\/?([a-zA-Z]+)/g)].map((m) => m[1]);
  expect(new Set(tags)).toEqual(new Set(['svg', 'title', 'rect', 'path', 'text']));
  // Every '&' starts a character reference.
  expect(svg.replace(/&#\d+;/g, '')).not.toContain('&');
}

describe('GET /badge/{slug}.svg', () => {
  it('serves "Listed on tooldir" for a live tool, cacheable for an hour, under a policy that runs nothing', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Badge Basic' }]);
    const res = await t.request(`/badge/${tool!.slug}.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const svg = await res.text();
    expectWellFormedSvg(svg);
    expect(svg).toContain('>Listed on tooldir</text>');
    expect(svg).toContain('<title>Badge Basic – Listed on tooldir</title>');
  });

  it('serves the Featured variant for a featured tool, and the dark theme on ?theme=dark', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Badge Featured', isFeature: true }]);
    const light = await (await t.request(`/badge/${tool!.slug}.svg`)).text();
    expect(light).toContain('>Featured on tooldir</text>');
    const dark = await t.request(`/badge/${tool!.slug}.svg?theme=dark`);
    expect(dark.status).toBe(200);
    const svg = await dark.text();
    expect(svg).toContain('>Featured on tooldir</text>');
    expect(svg).toContain('fill="#1d1d1f" stroke');
    expect(svg).not.toBe(light);
  });

  it('answers 404 in the error shape for an unknown slug and for tools that are not live', async () => {
    const [pending, rejected] = await seedTools(t.deps.db, [
      { name: 'Badge Pending', status: 'pending_review' },
      { name: 'Badge Rejected', status: 'rejected' },
    ]);
    for (const path of ['/badge/no-such-tool.svg', `/badge/${pending!.slug}.svg`, `/badge/${rejected!.slug}.svg`]) {
      const res = await t.request(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('cache-control'), path).toBe('no-store'); // kept by no cache: a tool that goes live shows at once
      expect(await res.json(), path).toEqual({
        error: { code: 'not_found', message: 'No live tool with this slug or site_id is listed in the directory.' },
      });
    }
  });

  it('refuses an unknown theme with 400 and a path without .svg with 404, never a 5xx for odd slugs', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Badge Theme' }]);
    const theme = await t.request(`/badge/${tool!.slug}.svg?theme=%3Cpink%3E`);
    expect(theme.status).toBe(400);
    expect(await theme.json()).toEqual({
      error: { code: 'invalid_request', message: 'theme must be one of: light, dark.' },
    });
    expect((await t.request(`/badge/${tool!.slug}.png`)).status).toBe(404);
    expect((await t.request(`/badge/${tool!.slug}`)).status).toBe(404);
    for (const odd of ['%00.svg', '%E2%80%AE.svg', `${'a'.repeat(5000)}.svg`, '.svg', '%2F..%2Fadmin.svg']) {
      const res = await t.request(`/badge/${odd}`);
      expect(res.status, odd).toBe(404);
    }
  });

  it('escapes the tool name inside the SVG', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: '</title><script>alert(1)</script>&' }]);
    const svg = await (await t.request(`/badge/${tool!.slug}.svg`)).text();
    expectWellFormedSvg(svg);
    expect(svg).not.toContain('<script');
  });

  it('answers HEAD like GET without a body', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Badge Head' }]);
    const res = await t.request(`/badge/${tool!.slug}.svg`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await res.text()).toBe('');
  });
});

describe('the tool page offers the badge', () => {
  it('shows the badge, the embed snippet (escaped, pointing at our origin) and a copy button revealed by its one script', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Badge Embed', isFeature: true }], t.deps.origin);
    const res = await t.request(`/tools/${tool!.slug}`);
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain(`<img src="/badge/${tool!.slug}.svg" alt="Featured on tooldir" height="28">`);
    const snippet = `<a href="${t.deps.origin}/tools/${tool!.slug}"><img src="${t.deps.origin}/badge/${tool!.slug}.svg" alt="Featured on tooldir" height="28"></a>`;
    const escaped = snippet.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    expect(page).toContain(`<textarea id="badge-snippet" class="embed" rows="3" readonly>${escaped}</textarea>`);
    expect(page).toContain('<button type="button" data-copy="badge-snippet" hidden>Copy</button>');
    // Exactly one script, allowed by its hash alone.
    const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(scripts[0]))).toString(
      'base64',
    );
    expect(res.headers.get('content-security-policy')).toContain(`script-src 'sha256-${hash}';`);
    expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|nonce-[^']*'[^;]*script/);
  });

  it('keeps the home page free of script (its only script elements are JSON-LD data blocks)', async () => {
    const res = await t.request('/');
    const tags = (await res.text()).match(/<script[^>]*>/g) ?? [];
    expect(tags.filter((tag) => tag !== '<script type="application/ld+json">')).toEqual([]);
    expect(res.headers.get('content-security-policy')).not.toContain('script-src');
  });
});
