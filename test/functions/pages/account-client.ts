import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { type TestApp, uniqueName, uniqueUrl } from '../../helpers/test-app';
import { createNodeExecutionContext } from '../../../functions/node/execution-context';

/**
 * A tiny cookie-keeping browser over app.request for the account-area tests: it follows no redirects
 * (tests assert them) and reads CSRF tokens and one-time codes the way a person would.
 */
export class PageClient {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly t: TestApp,
    /** A distinct client IP per client keeps the per-IP sign-in limits of different tests apart. */
    readonly ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    readonly base = 'http://tooldir.test',
  ) {}

  /**
   * Each request gets an execution context, as on Workers and the Node server; its deferred work (the
   * mailed code) is awaited after the response, like a runtime keeping the request alive for waitUntil,
   * unless `drain: false` (to see what the response itself waited for).
   */
  async request(
    path: string,
    /** `form` as URLSearchParams can repeat a name (checkboxes). */
    init: {
      method?: string;
      form?: Record<string, string> | URLSearchParams;
      headers?: Record<string, string>;
      drain?: boolean;
    } = {},
  ) {
    const headers = new Headers(init.headers);
    headers.set('cf-connecting-ip', this.ip);
    if (this.cookies.size) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    let body: string | undefined;
    if (init.form) {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = new URLSearchParams(init.form).toString();
    }
    const deferred = createNodeExecutionContext();
    const res = await this.t.app.request(
      `${this.base}${path}`,
      { method: init.method ?? (init.form ? 'POST' : 'GET'), headers, body },
      {},
      deferred.ctx,
    );
    if (init.drain !== false) await deferred.drain();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async page(path: string) {
    const res = await this.request(path);
    return { res, html: await res.text() };
  }

  /** Asks for a code from the sign-in page and returns the code page's HTML. */
  async requestCode(email: string) {
    const { html } = await this.page('/account/sign-in');
    const res = await this.request('/account/sign-in', { form: { _csrf: csrfOf(html), email } });
    return { res, html: await res.text() };
  }

  async submitCode(email: string, code: string, csrf?: string) {
    const res = await this.request('/account/sign-in/code', {
      form: { _csrf: csrf ?? this.cookies.get('tooldir_signin_csrf') ?? '', email, code },
    });
    return { res, html: await res.text() };
  }

  /** The whole flow: ask for a code, read it from the outbox, enter it. */
  async signIn(email: string) {
    await this.requestCode(email);
    const { res } = await this.submitCode(email, await latestCode(this.t, email));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/account');
  }
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF field on the page');
  return match[1]!;
}

export async function outboxFor(t: TestApp, email: string) {
  return queryRows<{ subject: string; text: string }>(
    t.deps.db,
    sql`SELECT subject, text FROM mail_outbox WHERE "to" = ${email} ORDER BY id`,
  );
}

export async function latestCode(t: TestApp, email: string): Promise<string> {
  const mails = await outboxFor(t, email);
  const match = /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '');
  if (!match) throw new Error(`no sign-in code mailed to ${email}`);
  return match[1]!;
}

export const newEmail = () => `person-${crypto.randomUUID().slice(0, 8)}@example.com`;

let ipCounter = 0;
/** A client address no other client of this test file has (random ones may collide and share budgets). */
export const uniqueIp = () => {
  ipCounter += 1;
  return `10.200.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/** The code of the mail whose reference matches the one on a code page (several browsers may ask). */
export async function codeForReference(t: TestApp, email: string, pageHtml: string): Promise<string> {
  const reference = /reference ([A-Z]{4})/.exec(pageHtml)?.[1];
  if (!reference) throw new Error('no reference on the code page');
  const mail = (await outboxFor(t, email)).find((m) => m.text.includes(`reference ${reference}`));
  const match = /\b(\d{6})\b/.exec(mail?.text ?? '');
  if (!match) throw new Error(`no mail to ${email} with reference ${reference}`);
  return match[1]!;
}

/** A member of `tier` (a new account with an API key) signed in on a fresh PageClient. */
export async function signedInMember(t: TestApp, tier: 'none' | 'member' | 'memberFeature' = 'none') {
  const m = await t.member(tier);
  const client = new PageClient(t);
  await client.signIn(m.email);
  return { m, client };
}

/** A submission made through the API by a member with quota: queued at once (201); its site_id. */
export async function submitQueued(t: TestApp, key: string, name = uniqueName('Queued')): Promise<string> {
  const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json: { name, url: uniqueUrl() } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { site_id: string }).site_id;
}
