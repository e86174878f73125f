import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STYLESHEET, stylesheetPath } from '../../../functions/pages/shell/stylesheet';
import { createTestApp, type TestApp } from '../../helpers/test-app';

// The one stylesheet (docs/pages.md "Visual system"): at an address that carries its hash, cached for a year,
// linked from every page, and only the current hash answers.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the stylesheet', () => {
  it('is served at /assets/site.<hash>.css as CSS, immutable for a year', async () => {
    expect(stylesheetPath()).toMatch(/^\/assets\/site\.[0-9a-f]{16}\.css$/);
    const res = await t.request(stylesheetPath());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await res.text()).toBe(STYLESHEET);
  });

  it('answers another hash with the 404 page, not stale rules', async () => {
    const res = await t.request('/assets/site.0123456789abcdef.css');
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control') ?? '').not.toMatch(/immutable/);
  });

  it('holds the tokens and their dark scheme, and is what every page links to', async () => {
    for (const token of ['--step-0:1rem', '--space-4:1rem', '--accent:', '--bg:']) expect(STYLESHEET).toContain(token);
    expect(STYLESHEET).toMatch(/@media \(prefers-color-scheme:dark\)\{:root\{[^}]*--bg:/);
    for (const path of ['/', '/pricing', '/account/sign-in', '/api/v1/docs', '/no-such-page']) {
      const html = await (await t.request(path)).text();
      expect(html.match(/<link rel="stylesheet"[^>]*>/g), path).toEqual([
        `<link rel="stylesheet" href="${stylesheetPath()}">`,
      ]);
      expect(html, path).not.toMatch(/<style|\sstyle="/);
    }
  });
});
