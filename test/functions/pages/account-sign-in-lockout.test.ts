import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import {
  CODES_PER_ADDRESS,
  CODES_PER_CLIENT,
  CODES_PER_KNOWN_BROWSER,
  MAX_CODE_TRIES,
  SEND_WINDOW_MINUTES,
} from '../../../src/accounts/sign-in';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, codeForReference, outboxFor, uniqueIp } from './account-client';

// A stranger who knows the owner's address must not be able to keep the owner out (docs/account.md
// "Sign-in codes"): wrong tries count per code and per client, a new code starts over, and asking for
// codes is budgeted per client inside a total per address.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { SIGNUP: 'closed' } });
});
afterAll(() => t.close());

const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

/** Asks for a code in this browser and returns the code the owner's mailbox got for it. */
async function askAndRead(client: PageClient, email: string) {
  const { res, html } = await client.requestCode(email);
  expect(res.status).toBe(200);
  return codeForReference(t, email, html);
}

/** A stranger's browser asks for a code for the address, then guesses until that code is dead. */
async function strangerBurnsACode(email: string, stranger = new PageClient(t, uniqueIp())) {
  const { res } = await stranger.requestCode(email);
  expect(res.status).toBe(200);
  const guesses = [];
  for (let i = 0; i < MAX_CODE_TRIES + 1; i++)
    guesses.push((await stranger.submitCode(email, String(100000 + i))).res.status);
  // (a guess could in theory be the stranger's code; 6 fixed guesses out of 10^6 are not)
  expect(guesses.at(-1)).toBe(429);
  return stranger;
}

describe('wrong codes from another client', () => {
  it("neither use up the owner's outstanding code nor touch its tries", async () => {
    const owner = await t.member('member');
    const ownerBrowser = new PageClient(t, uniqueIp());
    const code = await askAndRead(ownerBrowser, owner.email);

    await strangerBurnsACode(owner.email);
    // A browser that asked for nothing guesses too: there is no code of its own to spend.
    const bare = new PageClient(t, uniqueIp());
    await bare.page('/account/sign-in');
    for (let i = 0; i < 6; i++) expect((await bare.submitCode(owner.email, String(200000 + i))).res.status).toBe(401);

    // The owner still has all 5 tries: 4 typos, then the right code.
    for (const left of [4, 3, 2, 1])
      expect((await ownerBrowser.submitCode(owner.email, wrongFor(code))).html).toContain(
        `${left} ${left === 1 ? 'try' : 'tries'} left`,
      );
    const signedIn = await ownerBrowser.submitCode(owner.email, code);
    expect(signedIn.res.status).toBe(303);
    expect(signedIn.res.headers.getSetCookie().some((c) => c.startsWith('tooldir_session='))).toBe(true);
  });

  it("do not stop the owner's next code: a fresh code after a stranger's dead one signs in", async () => {
    const owner = await t.member('none');
    await strangerBurnsACode(owner.email);
    await strangerBurnsACode(owner.email);
    const ownerBrowser = new PageClient(t, uniqueIp());
    const code = await askAndRead(ownerBrowser, owner.email);
    expect((await ownerBrowser.submitCode(owner.email, code)).res.status).toBe(303);
  });

  it("cannot enter the owner's code even when they know it: a code works only in the browser that asked", async () => {
    const owner = await t.member('none');
    const ownerBrowser = new PageClient(t, uniqueIp());
    const code = await askAndRead(ownerBrowser, owner.email);
    const other = new PageClient(t, uniqueIp());
    await other.requestCode(owner.email); // the other browser's own code is a different one
    const r = await other.submitCode(owner.email, code);
    expect(r.res.status).toBe(401);
    expect(r.html).toContain('That code is not right');
    expect((await ownerBrowser.submitCode(owner.email, code)).res.status).toBe(303);
  });
});

describe('codes asked for by a stranger', () => {
  it("do not replace the owner's outstanding code and do not spend the owner's own budget", async () => {
    const owner = await t.member('member');
    const ownerBrowser = new PageClient(t, uniqueIp());
    const { html: ownerPage } = await ownerBrowser.requestCode(owner.email);

    const stranger = new PageClient(t, uniqueIp());
    for (let i = 0; i < CODES_PER_CLIENT; i++) expect((await stranger.requestCode(owner.email)).res.status).toBe(200);
    const refused = await stranger.requestCode(owner.email);
    expect(refused.res.status).toBe(429);
    // Until the window that started with the owner's code ends: at most SEND_WINDOW_MINUTES.
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(SEND_WINDOW_MINUTES * 60 - 60);
    expect(Number(refused.res.headers.get('retry-after'))).toBeLessThanOrEqual(SEND_WINDOW_MINUTES * 60);
    expect(refused.html).toContain('Too many codes were asked for this address');

    // The owner's mailbox has 1 + 3 codes; the reference on the owner's page picks the owner's one, which still works.
    expect(await outboxFor(t, owner.email)).toHaveLength(1 + CODES_PER_CLIENT);
    const code = await codeForReference(t, owner.email, ownerPage);
    expect((await ownerBrowser.submitCode(owner.email, code)).res.status).toBe(303);
  });

  it('from one client cannot use up the address: the owner still gets a new code', async () => {
    const owner = await t.member('none');
    const stranger = new PageClient(t, uniqueIp());
    for (let i = 0; i < CODES_PER_CLIENT + 2; i++) await stranger.requestCode(owner.email);
    const ownerBrowser = new PageClient(t, uniqueIp());
    const code = await askAndRead(ownerBrowser, owner.email);
    expect((await ownerBrowser.submitCode(owner.email, code)).res.status).toBe(303);
  });

  it('count IPv6 clients by their /64, so one subscriber cannot pose as many clients', async () => {
    const owner = await t.member('none');
    const sameSubnet = [
      '2001:db8:77:100::1',
      '2001:0db8:0077:0100:0000:0000:0000:0002',
      '2001:db8:77:100:a:b:c:d',
      '[2001:db8:77:100::4]',
    ];
    const statuses = [];
    for (const ip of sameSubnet.slice(0, CODES_PER_CLIENT + 1))
      statuses.push((await new PageClient(t, ip).requestCode(owner.email)).res.status);
    expect(statuses).toEqual([...Array<number>(CODES_PER_CLIENT).fill(200), 429]);
    expect((await new PageClient(t, '2001:db8:77:101::1').requestCode(owner.email)).res.status).toBe(200);
  });

  it('from many clients are bounded per address; a code the owner already holds keeps working', async () => {
    const owner = await t.member('none');
    const ownerBrowser = new PageClient(t, uniqueIp());
    const { html: ownerPage } = await ownerBrowser.requestCode(owner.email);
    const statuses = [];
    for (let i = 0; i < CODES_PER_ADDRESS + 2; i++)
      statuses.push((await new PageClient(t, uniqueIp()).requestCode(owner.email)).res.status);
    expect(statuses).toEqual([...Array<number>(CODES_PER_ADDRESS - 1).fill(200), 429, 429, 429]);
    expect(await outboxFor(t, owner.email)).toHaveLength(CODES_PER_ADDRESS);
    // The documented trade-off: a new code must wait for the window, but the one in hand still works.
    expect((await ownerBrowser.requestCode(owner.email)).res.status).toBe(429);
    expect(
      (await ownerBrowser.submitCode(owner.email, await codeForReference(t, owner.email, ownerPage))).res.status,
    ).toBe(303);
  });

  it('are counted exactly under concurrency, per client and per address', async () => {
    const owner = await t.member('none');
    const oneClient = uniqueIp();
    const sameClient = await Promise.all(
      Array.from({ length: 6 }, () => new PageClient(t, oneClient).requestCode(owner.email)),
    );
    expect(sameClient.filter((r) => r.res.status === 200)).toHaveLength(CODES_PER_CLIENT);
    const manyClients = await Promise.all(
      Array.from({ length: 8 }, () => new PageClient(t, uniqueIp()).requestCode(owner.email)),
    );
    expect(manyClients.filter((r) => r.res.status === 200)).toHaveLength(CODES_PER_ADDRESS - CODES_PER_CLIENT);
    expect(await outboxFor(t, owner.email)).toHaveLength(CODES_PER_ADDRESS);
  });

  it('are budgeted per window: once the window is over, codes can be asked for again', async () => {
    const owner = await t.member('none');
    for (let i = 0; i < CODES_PER_ADDRESS; i++) await new PageClient(t, uniqueIp()).requestCode(owner.email);
    const ownerBrowser = new PageClient(t, uniqueIp());
    expect((await ownerBrowser.requestCode(owner.email)).res.status).toBe(429);
    await queryRows(
      t.deps.db,
      sql`UPDATE sign_in_send_budgets SET window_start = window_start - make_interval(mins => ${SEND_WINDOW_MINUTES + 1}) WHERE email = ${owner.email}`,
    );
    const code = await askAndRead(ownerBrowser, owner.email);
    expect((await ownerBrowser.submitCode(owner.email, code)).res.status).toBe(303);
  });
});

describe("the owner's known browser (it signed in before)", () => {
  /** The owner signs in once in `browser`, then the session ends (it expired, or they signed out elsewhere). */
  async function signedInOnceThenOut(email: string) {
    const browser = new PageClient(t, uniqueIp());
    await browser.signIn(email);
    browser.cookies.delete('tooldir_session');
    return browser;
  }

  it('keeps the sign-in forms a long-lived, HttpOnly, Strict token after signing in', async () => {
    const owner = await t.member('none');
    const browser = new PageClient(t, uniqueIp());
    await browser.requestCode(owner.email);
    const { res } = await browser.submitCode(
      owner.email,
      await codeForReference(t, owner.email, (await browser.requestCode(owner.email)).html),
    );
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tooldir_known_browser='));
    expect(cookie).toMatch(
      /^tooldir_known_browser=[0-9A-Za-z]{22}\.[0-9a-f]{64}; Max-Age=34560000; Path=\/account\/sign-in; HttpOnly; Secure; SameSite=Strict$/,
    );
  });

  it('gets a code while strangers on many clients hold the address at its limit, without spending the total', async () => {
    const owner = await t.member('none');
    const ownerBrowser = await signedInOnceThenOut(owner.email); // its first code came out of the address's total
    for (let i = 1; i < CODES_PER_ADDRESS; i++)
      expect((await new PageClient(t, uniqueIp()).requestCode(owner.email)).res.status).toBe(200);
    // A browser that never signed in waits for the window, at most SEND_WINDOW_MINUTES…
    const newBrowser = await new PageClient(t, uniqueIp()).requestCode(owner.email);
    expect(newBrowser.res.status).toBe(429);
    expect(Number(newBrowser.res.headers.get('retry-after'))).toBeLessThanOrEqual(SEND_WINDOW_MINUTES * 60);
    // …the owner's usual browser does not wait at all.
    const { res, html } = await ownerBrowser.requestCode(owner.email);
    expect(res.status).toBe(200);
    expect((await ownerBrowser.submitCode(owner.email, await codeForReference(t, owner.email, html))).res.status).toBe(
      303,
    );
    const [total] = await queryRows<{ sent: number }>(
      t.deps.db,
      sql`SELECT sent FROM sign_in_send_budgets WHERE email = ${owner.email} AND client = '*'`,
    );
    expect(Number(total!.sent)).toBe(CODES_PER_ADDRESS);
  });

  it('has a budget of its own per window, which a refusal names', async () => {
    const owner = await t.member('none');
    const ownerBrowser = await signedInOnceThenOut(owner.email);
    for (let i = 0; i < CODES_PER_KNOWN_BROWSER; i++)
      expect((await ownerBrowser.requestCode(owner.email)).res.status).toBe(200);
    const refused = await ownerBrowser.requestCode(owner.email);
    expect(refused.res.status).toBe(429);
    expect(Number(refused.res.headers.get('retry-after'))).toBeGreaterThan(SEND_WINDOW_MINUTES * 60 - 60);
    expect(Number(refused.res.headers.get('retry-after'))).toBeLessThanOrEqual(SEND_WINDOW_MINUTES * 60);
  });

  it('opens nothing for another address, nor when forged or altered: those browsers count as strangers', async () => {
    const owner = await t.member('none');
    const other = await t.member('none');
    const otherBrowser = await signedInOnceThenOut(other.email);
    const token = otherBrowser.cookies.get('tooldir_known_browser')!;
    const [id, mac] = token.split('.') as [string, string];
    const forgeries = [
      token,
      `${id}.${'0'.repeat(64)}`,
      `${'A'.repeat(22)}.${mac}`,
      `${id}.${mac.toUpperCase()}`,
      'garbage',
    ];
    for (let i = 0; i < CODES_PER_ADDRESS; i++)
      expect((await new PageClient(t, uniqueIp()).requestCode(owner.email)).res.status).toBe(200);
    // Control: the genuine token does open its own address's budget, which is at its limit too.
    for (let i = 1; i < CODES_PER_ADDRESS; i++) await new PageClient(t, uniqueIp()).requestCode(other.email);
    expect((await new PageClient(t, uniqueIp()).requestCode(other.email)).res.status).toBe(429);
    expect((await otherBrowser.requestCode(other.email)).res.status).toBe(200);
    for (const forged of forgeries) {
      const browser = new PageClient(t, uniqueIp());
      browser.cookies.set('tooldir_known_browser', forged);
      expect((await browser.requestCode(owner.email)).res.status, forged).toBe(429);
    }
  });
});
