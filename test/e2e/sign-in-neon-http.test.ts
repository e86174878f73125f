// Sign-in on real PostgreSQL through the production driver (drizzle neon-http against the Neon stand-in).
// PGlite runs one statement at a time; here concurrent requests really overlap, so these cases prove the
// send budgets, the tries per code and the once-only use hold as single statements (docs/account.md).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client';
import { CODES_PER_ADDRESS, CODES_PER_CLIENT, MAX_CODE_TRIES } from '../../src/accounts/sign-in';
import { findPostgresBinaries, type PostgresServer } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';
import type { NeonStandIn } from '../helpers/standins/neon-http';
import { startNeonDatabase } from '../helpers/standins/neon-database';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { PageClient, latestCode, newEmail, outboxFor, uniqueIp } from '../functions/pages/account-client';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('sign-in on PostgreSQL through drizzle neon-http, under concurrency', () => {
  let pg: PostgresServer;
  let neon: NeonStandIn;
  let t: TestApp;

  beforeAll(async () => {
    const started = await startNeonDatabase({ poolSize: 20 });
    ({ pg, neon } = started);
    t = await createTestApp({ db: { db: started.db, close: async () => {} } });
  });
  afterAll(async () => {
    await t?.close();
    await neon?.close();
    await pg?.close();
  });

  it('concurrent code requests never exceed the per-client and per-address budgets', async () => {
    const email = newEmail();
    const oneClient = uniqueIp();
    const fromOne = await Promise.all(Array.from({ length: 8 }, () => new PageClient(t, oneClient).requestCode(email)));
    expect(fromOne.filter((r) => r.res.status === 200)).toHaveLength(CODES_PER_CLIENT);
    const fromMany = await Promise.all(
      Array.from({ length: 10 }, () => new PageClient(t, uniqueIp()).requestCode(email)),
    );
    expect(fromMany.filter((r) => r.res.status === 200)).toHaveLength(CODES_PER_ADDRESS - CODES_PER_CLIENT);
    expect(await outboxFor(t, email)).toHaveLength(CODES_PER_ADDRESS);
    const [total] = await queryRows<{ sent: number }>(
      t.deps.db,
      sql`SELECT sent FROM sign_in_send_budgets WHERE email = ${email} AND client = '*'`,
    );
    expect(Number(total!.sent)).toBe(CODES_PER_ADDRESS);
  });

  it('concurrent wrong guesses spend exactly the tries of one code, and the right code works once', async () => {
    const email = newEmail();
    const client = new PageClient(t, uniqueIp());
    await client.requestCode(email);
    const code = await latestCode(t, email);
    const wrong = code === '000000' ? '111111' : '000000';
    const guesses = await Promise.all(Array.from({ length: 8 }, () => client.submitCode(email, wrong)));
    expect(guesses.filter((r) => r.res.status === 401)).toHaveLength(MAX_CODE_TRIES - 1);
    expect(guesses.filter((r) => r.res.status === 429)).toHaveLength(8 - (MAX_CODE_TRIES - 1));
    const [row] = await queryRows<{ tries: number }>(
      t.deps.db,
      sql`SELECT tries FROM sign_in_codes WHERE email = ${email}`,
    );
    expect(Number(row!.tries)).toBe(MAX_CODE_TRIES);

    const owner = new PageClient(t, uniqueIp());
    await owner.requestCode(email);
    const fresh = await latestCode(t, email);
    const entered = await Promise.all(Array.from({ length: 4 }, () => owner.submitCode(email, fresh)));
    expect(entered.map((r) => r.res.status).sort()).toEqual([303, 401, 401, 401]);
  });
});
