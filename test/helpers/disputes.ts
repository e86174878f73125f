// An open claim dispute made through the public API: two accounts prove one domain by DNS (an in-memory TXT table),
// the owner's listing is claimed by the other, and the 409 claim_disputed records the dispute the operator decides.
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows } from '../../src/db/client';
import { seedOwnedTool } from './owned-tools';
import { uniqueName, type TestApp } from './test-app';

export type TxtRecords = Record<string, string[]>;

export async function proveByDns(t: TestApp, records: TxtRecords, key: string, domain: string): Promise<void> {
  const { token } = await (await t.request('/api/v1/domains', { method: 'POST', key, json: { domain } })).json();
  records[`_tooldir.${domain}`] = [...(records[`_tooldir.${domain}`] ?? []), `tooldir-verification=${token}`];
  const verified = await t.request(`/api/v1/domains/${domain}/verify`, {
    method: 'POST',
    key,
    json: { method: 'dns' },
  });
  expect(verified.status).toBe(200);
}

export interface OpenedDispute {
  claimId: string;
  siteId: string;
  name: string;
  domain: string;
  owner: Awaited<ReturnType<TestApp['member']>>;
  claimant: Awaited<ReturnType<TestApp['member']>>;
}

/**
 * A live listing on a fresh domain both accounts proved, claimed by a new member (409: a dispute). With `same`, another
 * claimant of that dispute's listing (the owner's proof is already there).
 */
export async function openDispute(t: TestApp, records: TxtRecords, same?: OpenedDispute): Promise<OpenedDispute> {
  const claimant = await t.member();
  let listing: Pick<OpenedDispute, 'siteId' | 'name' | 'domain' | 'owner'>;
  if (same) listing = same;
  else {
    const owner = await t.member();
    const domain = `disputed-${crypto.randomUUID().slice(0, 8)}.com`;
    const name = uniqueName('Disputed');
    const { id } = await seedOwnedTool(t.deps.db, owner.accountId, { name, url: `https://${domain}/` });
    await proveByDns(t, records, owner.key, domain);
    listing = { siteId: id, name, domain, owner };
  }
  await proveByDns(t, records, claimant.key, listing.domain);
  const url = `https://${listing.domain}/`;
  const res = await t.request('/api/v1/claims', { method: 'POST', key: claimant.key, json: { url } });
  expect(res.status).toBe(409);
  expect((await res.json()).error.code).toBe('claim_disputed');
  const [row] = await queryRows<{ id: string }>(
    t.deps.db,
    sql`SELECT id FROM site_claims WHERE site_id = ${listing.siteId}::uuid AND to_account_id = ${claimant.accountId}::uuid AND outcome = 'disputed'`,
  );
  return { ...listing, claimId: row!.id, claimant };
}

export const ownerOf = async (t: TestApp, siteId: string) =>
  (await queryRows<{ account_id: string }>(t.deps.db, sql`SELECT account_id FROM sites WHERE id = ${siteId}::uuid`))[0]!
    .account_id;

export const disputeRow = async (t: TestApp, claimId: string) =>
  (
    await queryRows<{ outcome: string; settled: boolean }>(
      t.deps.db,
      sql`SELECT outcome, settled_at IS NOT NULL AS settled FROM site_claims WHERE id = ${claimId}::uuid`,
    )
  )[0];

export const mailSubjects = async (t: TestApp, to: string) =>
  (await queryRows<{ subject: string }>(t.deps.db, sql`SELECT subject FROM mail_outbox WHERE "to" = ${to}`)).map(
    (m) => m.subject,
  );
