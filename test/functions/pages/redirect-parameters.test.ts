// A CR or LF in `next` or in any other parameter that could reach a redirect is a 400, never a 500 (a header value
// with a line break makes the runtime throw) and never a header of ours: through the public surface, signed out and
// signed in, on every form that carries `next`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, csrfOf, latestCode, newEmail, outboxFor } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const BREAKS = ['\r\nSet-Cookie: injected=1', '\nLocation: https://evil.example', '\r', '\u0000', '\u007f'];
const consentPath = (tail: string) => `/account/authorize?client_id=x${tail}`;

/** A 400 page that says why, with no Location and nothing the parameter smuggled in. */
async function expectRefused(res: Response) {
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(res.headers.getSetCookie().some((c) => c.startsWith('injected'))).toBe(false);
  expect(await res.text()).toContain('must not contain line breaks or other control characters');
}

describe('next on the sign-in pages', () => {
  it.each(BREAKS.map((b) => [JSON.stringify(b), b]))(
    'GET /account/sign-in?next=… with %s is 400, signed out and signed in',
    async (_label, brk) => {
      const query = `?next=${encodeURIComponent(consentPath(brk))}`;
      await expectRefused(await new PageClient(t).request(`/account/sign-in${query}`));
      const signedIn = new PageClient(t);
      await signedIn.signIn(newEmail());
      await expectRefused(await signedIn.request(`/account/sign-in${query}`));
    },
  );

  it('POST /account/sign-in with a broken next is 400 and sends no code', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    const { html } = await client.page('/account/sign-in');
    await expectRefused(
      await client.request('/account/sign-in', { form: { _csrf: csrfOf(html), email, next: consentPath('\r\nX: y') } }),
    );
    expect(await outboxFor(t, email)).toEqual([]);
  });

  it('POST /account/sign-in/code with a broken next is 400, spends nothing, and the same code then signs in', async () => {
    const client = new PageClient(t);
    const email = newEmail();
    const { html } = await client.page('/account/sign-in');
    await client.request('/account/sign-in', { form: { _csrf: csrfOf(html), email } });
    const code = await latestCode(t, email);
    const csrf = client.cookies.get('tooldir_signin_csrf')!;
    const refused = await client.request('/account/sign-in/code', {
      form: { _csrf: csrf, email, code, next: consentPath('\nLocation: https://evil.example') },
    });
    await expectRefused(refused);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith('tooldir_session='))).toBe(false);
    const signedIn = await client.request('/account/sign-in/code', {
      form: { _csrf: csrf, email, code, next: consentPath('&state=ok') },
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe(consentPath('&state=ok'));
  });

  it('a next without control characters still returns to the consent page (control)', async () => {
    const client = new PageClient(t);
    await client.signIn(newEmail());
    const res = await client.request(`/account/sign-in?next=${encodeURIComponent(consentPath('&state=a%20b'))}`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(consentPath('&state=a%20b'));
  });
});

describe('other parameters that lead to a redirect', () => {
  const crlf = encodeURIComponent('\r\nSet-Cookie: injected=1');

  it('redirect_uri with a line break is 400 on /oauth/authorize and the consent page', async () => {
    for (const path of ['/oauth/authorize', '/account/authorize']) {
      const res = await t.app.request(
        `http://tooldir.test${path}?response_type=code&client_id=x&redirect_uri=http://127.0.0.1:43210/cb${crlf}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
        { headers: { 'cf-connecting-ip': '203.0.113.90' } },
      );
      expect(res.status, path).toBe(400);
      expect(res.headers.get('location'), path).toBeNull();
    }
  });

  it.each([
    `/checkout/success?session_id=cs_local_x${crlf}`,
    `/admin?notice=${crlf}`,
    `/?page=2${crlf}`,
    `/?cursor=${crlf}`,
    `/categories/writing?page=${crlf}`,
    `/api/v1/tools?cursor=${crlf}`,
    `/account/sign-in?signed_out${crlf}`,
  ])('%s answers below 500 and sets no header from it', async (path) => {
    const res = await t.app.request(`http://tooldir.test${path}`, { headers: { 'cf-connecting-ip': '203.0.113.91' } });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.getSetCookie().some((c) => c.startsWith('injected'))).toBe(false);
    expect(res.headers.get('location') ?? '').not.toMatch(/[\r\n]/);
  });
});
