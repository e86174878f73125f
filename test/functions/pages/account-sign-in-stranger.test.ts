import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { createLogger } from '../../../src/log';
import type { Mailer } from '../../../src/adapters/mail/types';
import { CODES_PER_CLIENT, SEND_WINDOW_MINUTES } from '../../../src/accounts/sign-in';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, newEmail, outboxFor, uniqueIp } from './account-client';

// What a stranger sees of the sign-in flow must not depend on whether an address has an account
// (docs/account.md "What a stranger learns"). The deps clock is fixed so that Retry-After, cookie
// lifetimes and expiries are the same for both walks; only per-request random values are normalised.
const NOW = new Date();

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

/** Status, every header and the body, with only the per-request random values (and the address) replaced. */
async function answer(res: Response, email: string): Promise<Answer> {
  const headers: string[] = [];
  res.headers.forEach((value, name) => {
    if (name === 'set-cookie') return;
    if (name === 'x-request-id') value = 'REQUEST-ID';
    if (name === 'content-security-policy') value = value.replace(/nonce-[0-9A-Za-z]+/g, 'nonce-NONCE');
    // Seconds until the caller's own IP bucket refills: time-derived, not random, and the same bucket
    // state in both walks; the value is checked to be a plain number and then compared as its shape only.
    if (name === 'ratelimit-reset') {
      expect(value).toMatch(/^\d{1,2}$/);
      value = 'SECONDS';
    }
    headers.push(`${name}: ${value}`);
  });
  for (const cookie of res.headers.getSetCookie()) {
    headers.push(
      `set-cookie: ${cookie.replace(/^(tooldir_signin_csrf|tooldir_signin_challenge)=[0-9A-Za-z]{32};/, '$1=TOKEN;')}`,
    );
  }
  const body = (await res.text())
    .replace(/nonce="[0-9A-Za-z]+"/g, 'nonce="NONCE"')
    .replace(/name="_csrf" value="[0-9A-Za-z]+"/g, 'name="_csrf" value="TOKEN"')
    .replace(/reference [A-Z]{4}/g, 'reference REF')
    .replaceAll(email, 'EMAIL');
  return { status: res.status, headers: headers.sort(), body };
}

/**
 * A stranger's whole walk at one address: ask for a code, guess until the code dies, ask again until the
 * client's budget is spent, and guess from a browser that asked for nothing. `avoid` is never guessed.
 */
async function strangerWalk(t: TestApp, email: string, avoid: () => Promise<string[]>): Promise<Answer[]> {
  const answers: Answer[] = [];
  const client = new PageClient(t, uniqueIp());
  const csrf = async () => client.cookies.get('tooldir_signin_csrf')!;
  answers.push(await answer(await client.request('/account/sign-in'), email));
  const ask = async () =>
    answers.push(
      await answer(await client.request('/account/sign-in', { form: { _csrf: await csrf(), email } }), email),
    );
  await ask();
  const mailed = await avoid();
  const wrong = ['000000', '111111'].find((c) => !mailed.includes(c))!;
  const guess = async (from: PageClient) => {
    const res = await from.request('/account/sign-in/code', {
      form: { _csrf: from.cookies.get('tooldir_signin_csrf')!, email, code: wrong },
    });
    answers.push(await answer(res, email));
  };
  for (let i = 0; i < 6; i++) await guess(client);
  for (let i = 0; i < CODES_PER_CLIENT + 1; i++) await ask();
  const elsewhere = new PageClient(t, uniqueIp());
  await elsewhere.page('/account/sign-in');
  await guess(elsewhere);
  return answers;
}

const STATUSES = [
  200,
  200,
  401,
  401,
  401,
  401,
  429,
  429,
  ...Array<number>(CODES_PER_CLIENT - 1).fill(200),
  429,
  429,
  401,
];
const mailedCodes = (t: TestApp, email: string) => async () =>
  (await outboxFor(t, email)).map((m) => /\b(\d{6})\b/.exec(m.text)?.[1] ?? '');

for (const signup of ['closed', 'open'] as const) {
  describe(`SIGNUP=${signup}: a known and an unknown address, compared byte for byte`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { SIGNUP: signup }, overrides: { now: () => NOW } });
    });
    afterAll(() => t.close());

    it('answers every step the same: code sent, wrong codes, too many tries, too many codes, no code', async () => {
      const known = (await t.member('member')).email;
      const unknown = newEmail();
      const forKnown = await strangerWalk(t, known, mailedCodes(t, known));
      const forUnknown = await strangerWalk(t, unknown, mailedCodes(t, unknown));
      expect(forKnown.map((a) => a.status)).toEqual(STATUSES);
      expect(forUnknown).toEqual(forKnown);
      // The steps are what they claim to be (so the comparison is not of two identical error pages).
      expect(forKnown[1]!.body).toContain('6-digit code');
      expect(forKnown[2]!.body).toContain('4 tries left');
      expect(forKnown[6]!.body).toContain('Too many wrong codes');
      const tooManyCodes = forKnown.at(-2)!;
      expect(tooManyCodes.body).toContain('Too many codes were asked for this address');
      expect(tooManyCodes.headers).toContain(`retry-after: ${SEND_WINDOW_MINUTES * 60}`);
      expect(forKnown.at(-1)!.body).toContain('asked for in another browser');

      // What differs is only what the address's owner receives: mail (the client's codes) for an account ...
      expect(await outboxFor(t, known)).toHaveLength(CODES_PER_CLIENT);
      // ... and with sign-up open, for any address, because the code is how an address is proven.
      expect(await outboxFor(t, unknown)).toHaveLength(signup === 'open' ? CODES_PER_CLIENT : 0);
      // No account appears for an address that never proved a code, whatever the mode.
      expect(await queryRows(t.deps.db, sql`SELECT 1 FROM accounts WHERE email = ${unknown}`)).toEqual([]);
    });
  });
}

describe('the mail is sent off the response path', () => {
  it('answers before the mail API does (a known address is not slower than an unknown one)', async () => {
    const sent: string[] = [];
    const stuck: Mailer = { kind: 'http', send: (m) => (sent.push(m.to), new Promise<void>(() => {})) };
    const t = await createTestApp({ env: { SIGNUP: 'closed' }, overrides: { mail: stuck } });
    try {
      const member = await t.member('member');
      const client = new PageClient(t, uniqueIp());
      const { html } = await client.page('/account/sign-in');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
      // With drain: false nothing waits for deferred work: were the mail awaited, this would never answer.
      const res = await client.request('/account/sign-in', {
        form: { _csrf: csrf, email: member.email },
        drain: false,
      });
      expect(res.status).toBe(200);
      expect(sent).toEqual([member.email]);
    } finally {
      await t.close();
    }
  });

  it('a failing mail API is logged, not shown: the page is the same as for an address without an account', async () => {
    const lines: string[] = [];
    const failing: Mailer = { kind: 'http', send: () => Promise.reject(new Error('mail API answered 503')) };
    const t = await createTestApp({
      env: { SIGNUP: 'closed' },
      overrides: { mail: failing, now: () => NOW, log: createLogger('error', (line) => lines.push(line)) },
    });
    try {
      const member = await t.member('member');
      const unknown = newEmail();
      const ask = async (email: string) => {
        const client = new PageClient(t, uniqueIp());
        await client.page('/account/sign-in');
        return answer(
          await client.request('/account/sign-in', {
            form: { _csrf: client.cookies.get('tooldir_signin_csrf')!, email },
          }),
          email,
        );
      };
      const forKnown = await ask(member.email);
      expect(forKnown.status).toBe(200);
      expect(await ask(unknown)).toEqual(forKnown);
      expect(
        lines.filter((l) => l.includes('deferred work failed') && l.includes('mail API answered 503')),
      ).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
