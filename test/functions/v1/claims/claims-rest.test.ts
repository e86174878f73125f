// Claims through REST: the listing moves to the account that proved its domain (history, mail, webhook row, the
// previous owner locked out), and every refusal (400, 403, 404, 409 own, 409 disputed) changes nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../../src/db/client';
import { createTestApp, uniqueName, type TestApp } from '../../../helpers/test-app';
import { seedOwnedTool } from '../../../helpers/owned-tools';
import { txtTable } from '../../../helpers/domain-fixtures';

const records: Record<string, string[]> = {};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ overrides: { txt: txtTable(records) } });
});
afterAll(() => t.close());

async function prove(key: string, domain: string) {
  const { token } = await (await t.request('/api/v1/domains', { method: 'POST', key, json: { domain } })).json();
  records[`_tooldir.${domain}`] = [...(records[`_tooldir.${domain}`] ?? []), `tooldir-verification=${token}`];
  expect(
    (await t.request(`/api/v1/domains/${domain}/verify`, { method: 'POST', key, json: { method: 'dns' } })).status,
  ).toBe(200);
}
const claim = (key: string, url: string) => t.request('/api/v1/claims', { method: 'POST', key, json: { url } });
const ownerOf = async (id: string) =>
  (await queryRows<{ account_id: string }>(t.deps.db, sql`SELECT account_id FROM sites WHERE id = ${id}::uuid`))[0]!
    .account_id;

describe('POST /api/v1/claims', () => {
  it('moves the listing into the verified account; the previous one is mailed and locked out', async () => {
    const domain = `claimed-${crypto.randomUUID().slice(0, 8)}.com`;
    const [squatter, maker] = [await t.member(), await t.member()];
    // An endpoint subscribed to site.claimed (written directly: the test app resolves no webhook host).
    await queryRows(
      t.deps.db,
      sql`INSERT INTO webhooks (id, account_id, slot, url, events, secret)
      VALUES (${crypto.randomUUID()}::uuid, ${maker.accountId}::uuid, 1, 'https://hooks.example.com/in', ARRAY['site.claimed'], 'whsec_test')`,
    );
    const tool = await seedOwnedTool(t.deps.db, squatter.accountId, {
      name: uniqueName('Squatted'),
      url: `https://www.${domain}/`,
    });
    await prove(maker.key, domain);

    const res = await claim(maker.key, `HTTPS://${domain.toUpperCase()}/?utm_source=x`);
    expect(res.status).toBe(200);
    const record = await res.json();
    expect(record).toMatchObject({ site_id: tool.id, status: 'live', verified_owner: true, verified_method: 'dns' });
    expect(record.history.at(-1)).toMatchObject({ status: 'live', event: 'claimed' });
    expect(await ownerOf(tool.id)).toBe(maker.accountId);

    const mails = await queryRows<{ subject: string }>(
      t.deps.db,
      sql`SELECT subject FROM mail_outbox WHERE "to" = ${squatter.email}`,
    );
    expect(mails.map((m) => m.subject)).toContain(
      `Your listing "${record.name}" was claimed by the owner of ${domain}`,
    );
    const events = await queryRows<{ event_type: string; data: { domain: string } }>(
      t.deps.db,
      sql`SELECT d.event_type, d.data FROM webhook_deliveries d WHERE d.site_id = ${tool.id}::uuid`,
    );
    expect(events).toEqual([
      { event_type: 'site.claimed', data: expect.objectContaining({ domain, site_id: tool.id, claimed: true }) },
    ]);

    expect((await t.request(`/api/v1/sites/${tool.id}`, { key: squatter.key })).status).toBe(404);
    expect((await t.request(`/api/v1/sites/${tool.id}/stats`, { key: squatter.key })).status).toBe(404);
    expect(
      (
        await t.request(`/api/v1/sites/${tool.id}`, {
          method: 'PATCH',
          key: squatter.key,
          json: { description: 'mine' },
        })
      ).status,
    ).toBe(404);

    const again = await claim(maker.key, `https://${domain}/`);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toMatchObject({ code: 'conflict', site_id: tool.id });
  });

  it('403 without a proof, 404 without a listing, 400 for a bad URL: nothing moves', async () => {
    const domain = `nope-${crypto.randomUUID().slice(0, 8)}.com`;
    const [owner, other] = [await t.member(), await t.member()];
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: uniqueName('Kept'),
      url: `https://${domain}/`,
    });
    await t.request('/api/v1/domains', { method: 'POST', key: other.key, json: { domain } }); // added, never verified
    const forbidden = await claim(other.key, `https://${domain}/`);
    expect(forbidden.status).toBe(403);
    expect((await forbidden.json()).error.code).toBe('domain_not_verified');
    expect((await claim(other.key, `https://nothing-here-${crypto.randomUUID().slice(0, 6)}.com/`)).status).toBe(404);
    for (const url of ['ftp://x.com/', 'not a url', '']) expect((await claim(other.key, url)).status).toBe(400);
    expect(await ownerOf(tool.id)).toBe(owner.accountId);
  });

  it('claims the listing that holds the URL, never a withdrawn one with the same address', async () => {
    const domain = `resubmitted-${crypto.randomUUID().slice(0, 8)}.com`;
    const [first, second, maker] = [await t.member(), await t.member(), await t.member()];
    const withdrawn = await seedOwnedTool(t.deps.db, first.accountId, {
      name: uniqueName('Gone'),
      url: `https://${domain}/`,
    });
    await queryRows(
      t.deps.db,
      sql`UPDATE sites SET status = 'withdrawn', withdrawn_at = now() WHERE id = ${withdrawn.id}::uuid`,
    );
    await prove(maker.key, domain);
    // Withdrawn alone: no listing holds the URL.
    expect((await claim(maker.key, `https://${domain}/`)).status).toBe(404);
    // Submitted again by someone else: that listing is the one claimed, and the withdrawn one stays where it was.
    const current = await seedOwnedTool(t.deps.db, second.accountId, {
      name: uniqueName('Again'),
      url: `https://${domain}/`,
    });
    const res = await claim(maker.key, `https://${domain}/`);
    expect(res.status).toBe(200);
    expect((await res.json()).site_id).toBe(current.id);
    expect(await ownerOf(withdrawn.id)).toBe(first.accountId);
  });

  it('409 claim_disputed when the owner proved the domain too, listed for the operator once', async () => {
    const domain = `dispute-${crypto.randomUUID().slice(0, 8)}.com`;
    const [owner, rival] = [await t.member(), await t.member()];
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: uniqueName('Disputed'),
      url: `https://${domain}/`,
    });
    await prove(owner.key, domain);
    await prove(rival.key, domain);
    for (let i = 0; i < 2; i++) {
      const res = await claim(rival.key, `https://${domain}/`);
      expect(res.status).toBe(409);
      expect((await res.json()).error.code).toBe('claim_disputed');
    }
    expect(await ownerOf(tool.id)).toBe(owner.accountId);
    const disputes = await queryRows<{ outcome: string }>(
      t.deps.db,
      sql`SELECT outcome FROM site_claims WHERE site_id = ${tool.id}::uuid`,
    );
    expect(disputes).toEqual([{ outcome: 'disputed' }]);
  });

  it('lets only one of two concurrent claimants win', async () => {
    const domain = `race-${crypto.randomUUID().slice(0, 8)}.com`;
    const [owner, a, b] = [await t.member(), await t.member(), await t.member()];
    const tool = await seedOwnedTool(t.deps.db, owner.accountId, {
      name: uniqueName('Raced'),
      url: `https://${domain}/`,
    });
    await prove(a.key, domain);
    await prove(b.key, domain);
    const statuses = (await Promise.all([claim(a.key, `https://${domain}/`), claim(b.key, `https://${domain}/`)]))
      .map((r) => r.status)
      .sort();
    // The loser sees either the winner's listing as proven by its new owner (claim_disputed) or a changed listing.
    expect(statuses[0]).toBe(200);
    expect(statuses[1]).toBe(409);
    expect([a.accountId, b.accountId]).toContain(await ownerOf(tool.id));
    const claims = await queryRows<{ n: number }>(
      t.deps.db,
      sql`SELECT count(*)::int AS n FROM site_claims WHERE site_id = ${tool.id}::uuid AND outcome = 'claimed'`,
    );
    expect(claims[0]!.n).toBe(1);
  });
});
