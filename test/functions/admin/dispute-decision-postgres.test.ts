// Decisions on claim disputes racing on separate connections of a real PostgreSQL (PGlite serialises statements):
// one dispute decided several times at once changes things once; two claimants' disputes of one listing awarded at
// once move it once.
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import { findPostgresBinaries } from '../../helpers/services/postgres';
import { usePostgresTestApp } from '../../helpers/services/postgres-test-app';
import { requireService } from '../../helpers/services/require-service';
import { ADMIN_TOKEN } from '../../helpers/test-app';
import { txtTable } from '../../helpers/domain-fixtures';
import { disputeRow, openDispute, ownerOf, type TxtRecords } from '../../helpers/disputes';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('dispute decisions racing on a real PostgreSQL', () => {
  const records: TxtRecords = {};
  const pg = usePostgresTestApp({ overrides: { txt: txtTable(records) } });
  const decide = (claimId: string, decision: 'award' | 'keep') =>
    pg.t.request(`/api/v1/admin/disputes/${claimId}/decision`, {
      method: 'POST',
      json: { decision },
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
  const claimedMoves = async (siteId: string) =>
    (
      await queryRows<{ n: number }>(
        pg.t.deps.db,
        sql`SELECT count(*)::int AS n FROM site_claims WHERE site_id = ${siteId}::uuid AND outcome = 'claimed'`,
      )
    )[0]!.n;

  it('one dispute, award ×3 and keep ×2 at once: one 200, the rest 409, one outcome', async () => {
    for (let round = 0; round < 4; round++) {
      const d = await openDispute(pg.t, records);
      const answers = await Promise.all(
        (['award', 'keep', 'award', 'keep', 'award'] as const).map((x) => decide(d.claimId, x)),
      );
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
      const row = await disputeRow(pg.t, d.claimId);
      const awarded = row?.outcome === 'awarded';
      expect(row?.settled).toBe(true);
      expect(await claimedMoves(d.siteId)).toBe(awarded ? 1 : 0);
      expect(await ownerOf(pg.t, d.siteId)).toBe(awarded ? d.claimant.accountId : d.owner.accountId);
    }
  });

  it("two claimants' disputes of one listing awarded at once: it moves once, the other stays open", async () => {
    for (let round = 0; round < 4; round++) {
      const a = await openDispute(pg.t, records);
      const b = await openDispute(pg.t, records, a);
      const [ra, rb] = await Promise.all([decide(a.claimId, 'award'), decide(b.claimId, 'award')]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      const winner = ra.status === 200 ? a : b;
      const loser = ra.status === 200 ? b : a;
      expect(await ownerOf(pg.t, a.siteId)).toBe(winner.claimant.accountId);
      expect(await claimedMoves(a.siteId)).toBe(1);
      expect(await disputeRow(pg.t, loser.claimId)).toEqual({ outcome: 'disputed', settled: false });
    }
  });
});
