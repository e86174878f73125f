import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isServiceError } from '../../../src/errors';
import { safeNextPath, signInPath } from '../../../functions/pages/next-path';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, csrfOf, latestCode, newEmail, uniqueIp } from './account-client';
import { propertyRuns } from '../../helpers/property-runs';

// `next` is the one way sign-in returns somewhere: only paths of this site, and never a 500 (issue 20, point 3).
const HOSTILE = [
  '//evil.example',
  '//evil.example/submit',
  '/\\evil.example',
  '\\\\evil.example',
  '/\\/evil.example',
  'https://evil.example/',
  'http:evil.example',
  'HTTPS://evil.example',
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'evil.example',
  ' /submit',
  '/.//evil.example',
  `/${'a'.repeat(6001)}`,
];
const CONTROL = [
  '/submit\r\nSet-Cookie: x=1',
  '/\r\n',
  '\r\n',
  '/\t/evil.example',
  '/submit\u0000',
  '/a\u007f',
  '/%0d%0a\n',
];

describe('safeNextPath', () => {
  it('keeps paths of this site with their query, normalised for a Location header', () => {
    expect(safeNextPath('/submit?plan=featured')).toBe('/submit?plan=featured');
    expect(safeNextPath('/account/authorize?client_id=a&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&state=x')).toBe(
      '/account/authorize?client_id=a&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb&state=x',
    );
    expect(safeNextPath('/account/membership?tier=member#top')).toBe('/account/membership?tier=member');
    expect(safeNextPath('/tools/é€')).toBe('/tools/%C3%A9%E2%82%AC');
    expect(safeNextPath('/%0d%0a')).toBe('/%0d%0a'); // percent-encoded stays encoded: no header break
    expect(safeNextPath('/a/../submit')).toBe('/submit');
    expect(safeNextPath(undefined)).toBeUndefined();
    expect(safeNextPath('')).toBeUndefined();
  });

  it.each(HOSTILE)('drops %j (not a path of this site)', (value) => {
    expect(safeNextPath(value)).toBeUndefined();
  });

  it.each(CONTROL)('refuses %j with invalid_request (a 400), never a header', (value) => {
    let thrown: unknown;
    try {
      safeNextPath(value);
    } catch (error) {
      thrown = error;
    }
    expect(isServiceError(thrown) && thrown.code === 'invalid_request').toBe(true);
  });

  it('whatever it returns resolves to this origin and is a valid header value', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom('/', '\\', ':', '.', 'a', '%', '?', '#', '@', ' ', 'é', '\t', '\n', 'h', 't', 'p', 's'),
          maxLength: 20,
        }),
        (value) => {
          let path: string | undefined;
          try {
            path = safeNextPath(value);
          } catch {
            return; // control characters: a 400
          }
          if (path === undefined) return;
          expect(new URL(path, 'https://tooldir.example').origin).toBe('https://tooldir.example');
          expect(path.startsWith('/') && !path.startsWith('//')).toBe(true);
          expect(() => new Headers({ location: path })).not.toThrow();
          expect(/[^\x21-\x7e]/.test(path)).toBe(false);
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it('signInPath carries a safe next and drops an unsafe one', () => {
    expect(signInPath('/submit?plan=basic')).toBe('/account/sign-in?next=%2Fsubmit%3Fplan%3Dbasic');
    expect(signInPath('//evil.example')).toBe('/account/sign-in');
  });
});

describe('next through the sign-in pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a hostile next is dropped on the page and after the code: the person lands on /account', async () => {
    for (const next of HOSTILE) {
      const client = new PageClient(t, uniqueIp());
      const page = await client.page(`/account/sign-in?next=${encodeURIComponent(next)}`);
      expect(page.res.status).toBe(200);
      expect(page.html).not.toContain('name="next"');
      const email = newEmail();
      const code = await client.request('/account/sign-in', { form: { _csrf: csrfOf(page.html), email, next } });
      const codeHtml = await code.text();
      expect(codeHtml).not.toContain('name="next"');
      const done = await client.request('/account/sign-in/code', {
        form: { _csrf: csrfOf(codeHtml), email, code: await latestCode(t, email), next },
      });
      expect(done.status).toBe(303);
      expect(done.headers.get('location')).toBe('/account');
    }
  });

  it('a signed-in person with a hostile next goes to /account; with a good one, there', async () => {
    const client = new PageClient(t, uniqueIp());
    await client.signIn(newEmail());
    for (const next of HOSTILE) {
      const res = await client.request(`/account/sign-in?next=${encodeURIComponent(next)}`);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/account');
    }
    const res = await client.request('/account/sign-in?next=%2Fsubmit%3Fplan%3Dsponsored');
    expect(res.headers.get('location')).toBe('/submit?plan=sponsored');
  });

  it('CR, LF and other control characters are a 400 page, in the query and in the form, never a 500', async () => {
    const client = new PageClient(t, uniqueIp());
    for (const next of [...CONTROL, '%0d%0a']) {
      const query = next === '%0d%0a' ? next : encodeURIComponent(next);
      const res = await client.request(`/account/sign-in?next=${query}`);
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain(
        'The return address (next) must not contain line breaks or other control characters.',
      );
    }
    const page = await client.page('/account/sign-in');
    const post = await client.request('/account/sign-in', {
      form: { _csrf: csrfOf(page.html), email: newEmail(), next: '/submit\r\nX: y' },
    });
    expect(post.status).toBe(400);
    const code = await client.request('/account/sign-in/code', {
      form: { _csrf: csrfOf(page.html), email: newEmail(), code: '123456', next: '/\n/evil' },
    });
    expect(code.status).toBe(400);
  });
});
