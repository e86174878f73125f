// Issue 27: an OAuth client name a reader cannot see (blanks, fillers, lone marks) is stored as no name, so the
// consent page says "An unnamed app" rather than showing an empty gap where the name should be. Registration and
// Client ID Metadata Documents follow the one rule (src/printable-text.ts visibleCharacterCount).
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import {
  authorizeQuery,
  createOAuthTestApp,
  pkcePair,
  registerClient,
  signedInPerson,
  REDIRECT,
  type OAuthTestApp,
} from './oauth-harness';

const BLANK_DOCUMENT = 'https://blank.example/client.json';

let t: OAuthTestApp;
beforeAll(async () => {
  t = await createOAuthTestApp({
    dns: { 'blank.example': ['93.184.215.20'] },
    pages: {
      [BLANK_DOCUMENT]: () =>
        Response.json({ client_id: BLANK_DOCUMENT, client_name: '\u2800 \u3164', redirect_uris: [REDIRECT] }),
    },
  });
});
afterEach(() => expect(t.network.violations).toEqual([]));
afterAll(() => t.close());

const storedName = async (clientId: string) =>
  (await queryRows<{ name: string | null }>(t.deps.db, sql`SELECT name FROM oauth_clients WHERE id = ${clientId}`))[0]
    ?.name;

/** The consent page a signed-in person sees for this client. */
async function consentPage(clientId: string): Promise<string> {
  const { person } = await signedInPerson(t);
  const first = await person.request(`/oauth/authorize?${authorizeQuery(clientId, pkcePair().challenge)}`);
  expect(first.status).toBe(302);
  const page = await person.page(first.headers.get('location')!);
  expect(page.res.status).toBe(200);
  return page.html;
}

describe('a client name with no visible character', () => {
  it.each([
    ['braille blanks', '\u2800\u2800\u2800'],
    ['Hangul fillers', '\u3164\u3164'],
    ['half-width Hangul filler and choseong filler', '\uffa0\u115f'],
    ['fillers around a space', '\u2800 \u1160'],
    ['a musical null notehead', '\u{1d159}'],
    ['lone combining marks', '\u0301\u0301'],
    ['spaces only', '   '],
  ])('%s: registered without a name, and the consent page says "An unnamed app"', async (_label, name) => {
    const { res, body } = await registerClient(t, { client_name: name, redirect_uris: [REDIRECT] });
    expect(res.status).toBe(201);
    expect(body).not.toHaveProperty('client_name');
    const clientId = body.client_id as string;
    expect(await storedName(clientId)).toBeNull();
    const html = await consentPage(clientId);
    expect(html).toContain('<strong id="client-name"><bdi>An unnamed app</bdi></strong>');
  });

  it('a name with one visible character among fillers keeps the name as given (control)', async () => {
    const { res, body } = await registerClient(t, { client_name: 'A\u2800', redirect_uris: [REDIRECT] });
    expect(res.status).toBe(201);
    expect(body.client_name).toBe('A\u2800');
    expect(await storedName(body.client_id as string)).toBe('A\u2800');
  });

  it('a metadata document whose client_name is blank is cached without a name and shown as unnamed', async () => {
    const html = await consentPage(BLANK_DOCUMENT);
    expect(html).toContain('<strong id="client-name"><bdi>An unnamed app</bdi></strong>');
    expect(await storedName(BLANK_DOCUMENT)).toBeNull();
  });
});
