// An unpaid submission superseded by the maker's own (docs/ownership.md "Superseding") reads right everywhere: the API
// record (superseded: true, why in words), the submission page, the checkout page and the checkout return page; and a
// late payment of its checkout is refunded (never a second listing), once even when Stripe delivers it twice.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { createTestApp, uniqueName, type TestApp } from '../../../helpers/test-app';
import { txtTable } from '../../../helpers/domain-fixtures';
import { proveByDns, type TxtRecords } from '../../../helpers/disputes';
import { paidSession, recordingPayments, sendEvent, submitUnpaid } from '../../../helpers/stripe/payments-fixture';
import { signedInMember } from '../../pages/account/account-client';

const records: TxtRecords = {};
const payments = recordingPayments();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records), payments } });
});
afterAll(() => t.close());

/** A squatter's unpaid record of a URL, superseded by the verified maker's own (queued) submission of it. */
async function superseded() {
  const domain = `maker-${crypto.randomUUID().slice(0, 8)}.com`;
  const { m: squatter, client } = await signedInMember(t, 'none');
  const pending = await submitUnpaid(t, squatter.key, { name: uniqueName('Squat'), url: `https://${domain}/` });
  const maker = await t.member('member');
  await proveByDns(t, records, maker.key, domain);
  const own = await t.request('/api/v1/sites', {
    method: 'POST',
    key: maker.key,
    json: { name: uniqueName('Real'), url: `https://${domain}/` },
  });
  expect(own.status).toBe(201);
  return { domain, squatter, client, pending };
}
const listingsOf = async (domain: string) =>
  (
    await queryRows<{ n: number }>(t.deps.db, sql`SELECT count(*)::int AS n FROM sites WHERE url LIKE ${`%${domain}%`}`)
  )[0]!.n;
const text = async (path: string) => {
  const res = await t.request(path);
  return { status: res.status, body: await res.text() };
};

describe('a superseded unpaid submission', () => {
  it('says in words that the maker listed it and nothing was charged: API, submission page, checkout pages', async () => {
    const { squatter, client, pending } = await superseded();
    const record = await (await t.request(`/api/v1/sites/${pending.siteId}`, { key: squatter.key })).json();
    expect(record).toMatchObject({
      site_id: pending.siteId,
      status: 'rejected',
      superseded: true,
      rejection_reason: expect.stringMatching(/listed it themselves.*Nothing was charged\.$/),
    });

    const { html: page } = await client.page(`/account/submissions/${pending.siteId}`);
    expect(page).toContain('Listed by its maker');
    expect(page).toContain('Nothing was charged.');
    expect(page).not.toContain('Payment refunded');

    const back = await text(`/checkout/success?session_id=${pending.sessionId}`);
    expect(back.body).toContain('Listed by its maker');
    expect(back.body).toContain('Nothing was charged.');
    expect(back.body).not.toContain('Payment processing');

    const checkout = await text(`/checkout/${pending.sessionId}`);
    expect(checkout.status).toBe(410);
    expect(checkout.body).toContain('Listed by its maker');
    expect(checkout.body).not.toContain('has expired');
  });

  it('a late payment of its checkout is refunded, listed once, and the pages say the payment was refunded', async () => {
    const { domain, squatter, client, pending } = await superseded();
    const before = payments.calls.filter((c) => c.method === 'refund').length;
    const event = sendEvent.bind(null, t, 'checkout.session.completed', paidSession(pending));
    const id = `evt_late_${crypto.randomUUID().slice(0, 8)}`;
    expect((await event({ id })).status).toBe(200);
    expect((await event({ id })).status).toBe(200); // Stripe's redelivery: nothing more happens
    expect(payments.calls.filter((c) => c.method === 'refund')).toHaveLength(before + 1);
    expect(await listingsOf(domain)).toBe(1);
    const [row] = await queryRows<{ state: string }>(
      t.deps.db,
      sql`SELECT state FROM pending_submissions WHERE id = ${pending.siteId}::uuid`,
    );
    expect(row).toEqual({ state: 'superseded' });

    const record = await (await t.request(`/api/v1/sites/${pending.siteId}`, { key: squatter.key })).json();
    expect(record).toMatchObject({
      status: 'rejected',
      superseded: true,
      rejection_reason: expect.stringContaining('listed it themselves before your payment arrived'),
    });
    expect(record.rejection_reason).toContain('Your payment was refunded.');
    expect((await client.page(`/account/submissions/${pending.siteId}`)).html).toContain('Your payment was refunded.');
    const back = await text(`/checkout/success?session_id=${pending.sessionId}`);
    expect(back.body).toContain('Listed by its maker');
    expect(back.body).toContain('Your payment was refunded.');
  });
});
