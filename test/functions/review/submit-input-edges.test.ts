// Review findings F7 and F8: submit inputs the validation rules should refuse but that are accepted.
//  F7: port 0 is not "a valid port" (issue 2, point 7): nothing can be reached there, and the crawl is bound to fail.
//  F8: a name made only of invisible characters (zero-width space, combining marks, Hangul fillers) passes
//      "2 to 100 characters after trimming" although the directory would show an empty name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { countRows, uniqueName, uniqueUrl } from './review-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const submit = (key: string, json: unknown) => t.request('/api/v1/submit-site', { method: 'POST', key, json });

describe('submit: URL with port 0', () => {
  it.each(['https://port-zero.example:0/', 'http://port-zero.example:0'])('%s is 400 invalid_request naming url', async (url) => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: uniqueName(), url });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^url/) } });
    expect(await countRows(t, 'quota_usage', m.accountId)).toBe(0);
  });

  it('an explicit non-default port stays valid (control)', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: uniqueName(), url: `${uniqueUrl()}:8443/` });
    expect(res.status).toBe(201);
  });
});

describe('submit: names without a visible character', () => {
  it.each([
    ['two zero-width spaces', '\u200b\u200b'],
    ['zero-width joiners', '\u200d\u200d\u200d'],
    ['two combining acute accents', '\u0301\u0301'],
    ['Hangul fillers', '\u3164\u3164'],
    ['word joiners around a space', '\u2060 \u2060'],
  ])('%s is 400 invalid_request naming name', async (_label, name) => {
    const m = await t.member('member');
    const res = await submit(m.key, { name, url: uniqueUrl() });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.stringMatching(/^name/) } });
    expect(await countRows(t, 'sites', m.accountId)).toBe(0);
  });

  it('a short visible name with an accent stays valid (control)', async () => {
    const m = await t.member('member');
    const res = await submit(m.key, { name: `Ré ${crypto.randomUUID().slice(0, 6)}`, url: uniqueUrl() });
    expect(res.status).toBe(201);
  });
});
