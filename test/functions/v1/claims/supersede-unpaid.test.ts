// Superseding through REST: the verified owner's own submission of a URL closes other accounts' unpaid records of it
// (read as rejected, with why, their checkout link no longer offered); without a live proof nothing is superseded.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { createTestApp, uniqueName, type TestApp } from '../../../helpers/test-app';
import { txtTable } from '../../../helpers/domain-fixtures';

const records: Record<string, string[]> = {};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records) } });
});
afterAll(() => t.close());

const submit = (key: string, body: unknown) => t.request('/api/v1/sites', { method: 'POST', key, json: body });
async function prove(key: string, domain: string) {
  const { token } = await (await t.request('/api/v1/domains', { method: 'POST', key, json: { domain } })).json();
  records[`_tooldir.${domain}`] = [...(records[`_tooldir.${domain}`] ?? []), `tooldir-verification=${token}`];
  expect(
    (await t.request(`/api/v1/domains/${domain}/verify`, { method: 'POST', key, json: { method: 'dns' } })).status,
  ).toBe(200);
}
const pendingState = async (id: string) =>
  (await queryRows<{ state: string }>(t.deps.db, sql`SELECT state FROM pending_submissions WHERE id = ${id}::uuid`))[0]
    ?.state;

describe('superseding unpaid records', () => {
  it("the verified owner's submission (queued) supersedes another account's unpaid record of the URL", async () => {
    const domain = `owned-${crypto.randomUUID().slice(0, 8)}.com`;
    const [squatter, maker] = [await t.member('none'), await t.member('member')];
    const unpaid = await submit(squatter.key, { name: uniqueName('Squat'), url: `https://${domain}/` });
    expect(unpaid.status).toBe(402);
    const { site_id } = await unpaid.json();
    await prove(maker.key, domain);

    const own = await submit(maker.key, { name: uniqueName('Real'), url: `https://www.${domain}` });
    expect(own.status).toBe(201);
    expect(await pendingState(site_id)).toBe('superseded');
    const record = await (await t.request(`/api/v1/sites/${site_id}`, { key: squatter.key })).json();
    expect(record).toMatchObject({
      site_id,
      status: 'rejected',
      rejection_reason: expect.stringContaining(`verified owner of ${domain}`),
    });
    expect(record).not.toHaveProperty('checkout_url');
  });

  it("the verified owner's own unpaid submission supersedes too; its own record stays open", async () => {
    const domain = `owned-${crypto.randomUUID().slice(0, 8)}.com`;
    const [squatter, maker] = [await t.member('none'), await t.member('none')];
    const { site_id: theirs } = await (
      await submit(squatter.key, { name: uniqueName('Squat'), url: `https://${domain}/app` })
    ).json();
    await prove(maker.key, domain);
    const own = await submit(maker.key, { name: uniqueName('Real'), url: `https://${domain}/app` });
    expect(own.status).toBe(402);
    const mine = await own.json();
    expect(await pendingState(theirs)).toBe('superseded');
    expect(await pendingState(mine.site_id)).toBe('open');
  });

  it('supersedes nothing for a submitter without a live proof, nor records of other URLs on the domain', async () => {
    const domain = `shared-${crypto.randomUUID().slice(0, 8)}.com`;
    const [first, second, maker] = [await t.member('none'), await t.member('member'), await t.member('member')];
    const { site_id: a } = await (
      await submit(first.key, { name: uniqueName('First'), url: `https://${domain}/` })
    ).json();
    const { site_id: b } = await (
      await submit(first.key, { name: uniqueName('Other'), url: `https://${domain}/other` })
    ).json();
    expect((await submit(second.key, { name: uniqueName('Second'), url: `https://${domain}/` })).status).toBe(201);
    expect(await pendingState(a)).toBe('open');

    await prove(maker.key, domain);
    expect((await submit(maker.key, { name: uniqueName('Maker'), url: `https://${domain}/` })).status).toBe(409); // the queued site wins
    expect(await pendingState(a)).toBe('open'); // a refused submit changes nothing
    expect(await pendingState(b)).toBe('open');
  });
});
