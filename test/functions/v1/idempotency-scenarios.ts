// Idempotency-Key on submit through the REST surface (docs/idempotency.md). The same scenarios run on PGlite
// (idempotency.test.ts) and on PostgreSQL through the Neon HTTP stand-in (test/e2e/idempotency-neon-http.test.ts).
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { IdempotencyHarness } from './idempotency-harness';
import type { TestResponse } from '../../helpers/test-app';

let n = 0;
const tool = (tag = 'Idem') => {
  n += 1;
  const id = `${n}-${crypto.randomUUID().slice(0, 8)}`;
  return { name: `${tag} Tool ${id}`, url: `https://${tag.toLowerCase()}-${id}.example/` };
};

export function idempotencyScenarios(get: () => IdempotencyHarness): void {
  const submit = (
    key: string,
    body: unknown,
    idempotencyKey?: string,
    path = '/api/v1/submit-site',
  ): Promise<TestResponse> =>
    get().t.request(path, {
      method: 'POST',
      key,
      json: body,
      headers: idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey },
    });

  it('a repeat with the same key and body replays 201: same status and body, Idempotent-Replayed, no new row, quota once', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('member');
    const body = tool();
    const idem = crypto.randomUUID();
    const first = await submit(key, body, idem);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstBody = await first.json();
    expect(firstBody.quota.used_today).toBe(1);
    expect(await h.quotaUsed(accountId)).toBe(1);

    // Also through the alias path and with the keys of the body in another order: the same request.
    const again = await submit(key, { url: body.url, name: body.name }, idem, '/api/v1/sites');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(await h.sitesOf(accountId)).toBe(1);
    expect(await h.quotaUsed(accountId)).toBe(1);
    expect(await h.keyRows(accountId)).toEqual([{ key: idem, state: 'completed' }]);

    // The quota really moves for a new request: the replay counted nothing.
    const next = await submit(key, tool(), crypto.randomUUID());
    expect((await next.json()).quota.used_today).toBe(2);
  });

  it('the same key with a different body → 422 idempotency_key_reused, nothing created', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('member');
    const idem = `order-${crypto.randomUUID()}`;
    expect((await submit(key, tool(), idem)).status).toBe(201);
    const other = await submit(key, tool(), idem);
    expect(other.status).toBe(422);
    expect(await other.json()).toEqual({
      error: { code: 'idempotency_key_reused', message: expect.stringContaining('different request body') },
    });
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(await h.sitesOf(accountId)).toBe(1);
    expect(await h.quotaUsed(accountId)).toBe(1);
  });

  it('5 concurrent first uses of one key → one record, quota once; the others replay or get 409 with Retry-After', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('member');
    const body = tool('Race');
    const idem = crypto.randomUUID();
    const responses = await Promise.all(Array.from({ length: 5 }, () => submit(key, body, idem)));
    const created = responses.filter((r) => r.status === 201);
    const busy = responses.filter((r) => r.status === 409);
    expect(created.length + busy.length).toBe(5);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(created.filter((r) => r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    const bodies = await Promise.all(created.map((r) => r.json()));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    for (const r of busy) {
      expect(r.headers.get('retry-after')).toBe('1');
      expect((await r.json()).error.code).toBe('idempotency_in_progress');
    }
    expect(await h.sitesOf(accountId)).toBe(1);
    expect(await h.quotaUsed(accountId)).toBe(1);
    expect(await h.keyRows(accountId)).toEqual([{ key: idem, state: 'completed' }]);
    // Once the first has finished, a retry of any of them replays it.
    const later = await submit(key, body, idem);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(await later.json()).toEqual(bodies[0]);
  });

  it('a use while the first is still running → 409 idempotency_in_progress + Retry-After; afterwards it replays', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('none');
    const body = tool('Held');
    const idem = crypto.randomUUID();
    let release!: () => void;
    h.holdCheckout = new Promise<void>((resolve) => (release = resolve));
    try {
      const first = submit(key, body, idem);
      // The first request holds the key once the payment adapter has been asked for its checkout.
      while (h.checkouts.length === 0 || h.checkouts.at(-1)!.name !== body.name)
        await new Promise((r) => setImmediate(r));
      const during = await submit(key, body, idem);
      expect(during.status).toBe(409);
      expect(during.headers.get('retry-after')).toBe('1');
      expect(await during.json()).toEqual({ error: { code: 'idempotency_in_progress', message: expect.any(String) } });
      release();
      const done = await first;
      expect(done.status).toBe(402);
      const after = await submit(key, body, idem);
      expect(after.status).toBe(402);
      expect(await after.json()).toEqual(await done.json());
      expect(await h.sitesOf(accountId)).toBe(1);
    } finally {
      h.holdCheckout = undefined;
      release?.();
    }
  });

  it('402 replays the same checkout_url and asks the payment provider for no second session', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('none');
    const body = tool('Paid');
    const idem = crypto.randomUUID();
    const before = h.checkouts.length;
    const first = await submit(key, body, idem);
    expect(first.status).toBe(402);
    const firstBody = await first.json();
    expect(firstBody.checkout_url).toMatch(/^http/);
    expect(h.checkouts.length).toBe(before + 1);

    const again = await submit(key, body, idem);
    expect(again.status).toBe(402);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(firstBody);
    expect(h.checkouts.length).toBe(before + 1);
    // Without the key, a re-submit of the unpaid URL makes a fresh link (same site_id): the key is what saved it.
    const fresh = await submit(key, body);
    const freshBody = await fresh.json();
    expect(freshBody.site_id).toBe(firstBody.site_id);
    expect(freshBody.checkout_url).not.toBe(firstBody.checkout_url);
    expect(h.checkouts.length).toBe(before + 2);
    expect(await h.sitesOf(accountId)).toBe(1);
  });

  it('the same key from another account does not collide', async () => {
    const h = get();
    const a = await h.t.member('member');
    const b = await h.t.member('member');
    const idem = 'shared-key-between-accounts';
    const ra = await submit(a.key, tool(), idem);
    const rb = await submit(b.key, tool(), idem);
    expect([ra.status, rb.status]).toEqual([201, 201]);
    expect(rb.headers.get('idempotent-replayed')).toBeNull();
    expect((await ra.json()).site_id).not.toBe((await rb.json()).site_id);
    expect(await h.sitesOf(a.accountId)).toBe(1);
    expect(await h.sitesOf(b.accountId)).toBe(1);
  });

  it('400 and 429 are not stored: a retry with the same key after fixing the body (or the limit) runs', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('member');
    const idem = crypto.randomUUID();
    const good = tool();
    const invalid = await submit(key, { ...good, url: 'ftp://nope.example' }, idem);
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.code).toBe('invalid_request');
    expect(await h.keyRows(accountId)).toEqual([]);

    h.limited = true;
    let limited: TestResponse;
    try {
      limited = await submit(key, good, idem);
    } finally {
      h.limited = false;
    }
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(await h.keyRows(accountId)).toEqual([]);

    const fixed = await submit(key, good, idem);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    expect(await h.sitesOf(accountId)).toBe(1);
  });

  it('a failure on our side (500 checkout_failed) is not stored: the retry with the same key runs and succeeds', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('none');
    const body = tool('Flaky');
    const idem = crypto.randomUUID();
    h.failCheckouts = 1;
    const failed = await submit(key, body, idem);
    expect(failed.status).toBe(500);
    expect((await failed.json()).error.code).toBe('checkout_failed');
    expect(await h.keyRows(accountId)).toEqual([]);
    const retried = await submit(key, body, idem);
    expect(retried.status).toBe(402);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await h.keyRows(accountId)).toEqual([{ key: idem, state: 'completed' }]);
  });

  it('a decision of the verb (409 already_submitted) is stored and replayed with its site_id', async () => {
    const h = get();
    const { key } = await h.t.member('member');
    const body = tool('Dup');
    const first = await submit(key, body);
    const siteId = (await first.json()).site_id;
    const idem = crypto.randomUUID();
    const dup = await submit(key, body, idem);
    expect(dup.status).toBe(409);
    const dupBody = await dup.json();
    expect(dupBody.error).toMatchObject({ code: 'already_submitted', site_id: siteId });
    const again = await submit(key, body, idem);
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(dupBody);
  });

  it('malformed keys → 400 invalid_request in the error shape, nothing created or stored', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('member');
    for (const bad of ['', 'x'.repeat(256), 'clé', 'tab\there', 'del\x7f']) {
      const res = await submit(key, tool(), bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toEqual({
        error: { code: 'invalid_request', message: expect.stringContaining('Idempotency-Key') },
      });
    }
    expect(await h.sitesOf(accountId)).toBe(0);
    expect(await h.keyRows(accountId)).toEqual([]);
    // The bounds themselves are fine: 255 printable characters, spaces inside.
    expect((await submit(key, tool(), 'k'.repeat(255))).status).toBe(201);
    expect((await submit(key, tool(), 'a key with spaces ~!')).status).toBe(201);
  });

  it('after 24 hours a key is free again, and the sweep deletes it', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('member');
    const idem = crypto.randomUUID();
    expect((await submit(key, tool(), idem)).status).toBe(201);
    await h.t.deps.db.execute(
      sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE account_id = ${accountId}::uuid`,
    );
    const reused = await submit(key, tool(), idem);
    expect(reused.status).toBe(201);
    expect(reused.headers.get('idempotent-replayed')).toBeNull();
    expect(await h.sitesOf(accountId)).toBe(2);

    await h.t.deps.db.execute(
      sql`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE account_id = ${accountId}::uuid`,
    );
    const sweep = await h.t.request('/api/jobs/sweep', {
      method: 'POST',
      key: (await import('../../helpers/test-app')).ADMIN_TOKEN,
      json: {},
    });
    expect(sweep.status).toBe(200);
    expect((await sweep.json()).expiredIdempotencyKeys).toBeGreaterThanOrEqual(1);
    expect(await h.keyRows(accountId)).toEqual([]);
  });

  it('a claim left by a crashed request frees itself when its lock expires; the late writer cannot overwrite', async () => {
    const h = get();
    const { key, accountId } = await h.t.member('none');
    const body = tool('Crash');
    const idem = crypto.randomUUID();
    let release!: () => void;
    h.holdCheckout = new Promise<void>((resolve) => (release = resolve));
    let stuck: Promise<TestResponse>;
    try {
      stuck = submit(key, body, idem);
      while (h.checkouts.length === 0 || h.checkouts.at(-1)!.name !== body.name)
        await new Promise((r) => setImmediate(r));
      // As if the holder died: its lock is over.
      await h.t.deps.db.execute(
        sql`UPDATE idempotency_keys SET locked_until = now() - interval '1 second' WHERE account_id = ${accountId}::uuid`,
      );
      h.holdCheckout = undefined;
      const takeover = await submit(key, body, idem);
      expect(takeover.status).toBe(402);
      expect(takeover.headers.get('idempotent-replayed')).toBeNull();
      const takeoverBody = await takeover.json();
      release();
      expect((await stuck).status).toBe(402);
      // The stored answer is the one of the request that held the key when it finished.
      const replay = await submit(key, body, idem);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(await replay.json()).toEqual(takeoverBody);
    } finally {
      h.holdCheckout = undefined;
      release?.();
    }
  });
}
