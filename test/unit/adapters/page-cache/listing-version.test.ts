import { describe, expect, it } from 'vitest';
import type { Db } from '../../../../src/db/client';
import { createListingVersion } from '../../../../src/adapters/page-cache/listing-version';

/** A database whose version reads wait until the test answers them, in order. */
function fakeDb() {
  const pending: Array<(version: number) => void> = [];
  const db = {
    _: {
      session: {
        prepareQuery: () => ({
          execute: () =>
            new Promise((resolve) => pending.push((version) => resolve({ rows: [{ version: String(version) }] }))),
        }),
      },
    },
  } as unknown as Db;
  const answer = async (version: number) => {
    const next = pending.shift();
    if (!next) throw new Error('no read is waiting');
    next(version);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { db, pending, answer };
}

const noDefer = () => {
  throw new Error('nothing should be deferred');
};

describe('the listing version', () => {
  it('exact (maxAgeMs 0): a check never takes a read that began before it; checks that wait share the next one', async () => {
    const { db, pending, answer } = fakeDb();
    const version = createListingVersion(db, { maxAgeMs: 0 });
    const first = version.current(noDefer);
    expect(pending).toHaveLength(1);
    const second = version.current(noDefer); // arrived while the first read runs: a change may have committed since
    const third = version.current(noDefer);
    expect(pending).toHaveLength(1); // the two wait for one read, queued behind the running one
    await answer(1);
    expect(await first).toBe(1);
    expect(pending).toHaveLength(1);
    await answer(2);
    expect(await second).toBe(2);
    expect(await third).toBe(2);
    const fourth = version.current(noDefer);
    expect(pending).toHaveLength(1); // nothing running: a read of its own, at once
    await answer(3);
    expect(await fourth).toBe(3);
  });

  it('background (maxAgeMs > 0): waits only for the very first read, then reads again in the background when older', async () => {
    const { db, pending, answer } = fakeDb();
    let now = 0;
    const deferred: Array<Promise<unknown>> = [];
    const defer = (work: Promise<unknown>) => void deferred.push(work);
    const version = createListingVersion(db, { maxAgeMs: 1000, now: () => now });
    const first = version.current(defer);
    await answer(4);
    expect(await first).toBe(4);
    now = 999;
    expect(await version.current(defer)).toBe(4);
    expect(pending).toHaveLength(0);
    now = 1000;
    expect(await version.current(defer)).toBe(4); // old, served while a read runs in the background
    expect(await version.current(defer)).toBe(4);
    expect(pending).toHaveLength(1); // one background read, not one per check
    expect(deferred).toHaveLength(1);
    await answer(5);
    expect(await version.current(defer)).toBe(5);
  });
});
