// The rules of src/db/statement-batching.ts: a call goes at once while a slot is free, calls that wait share the next
// statement (in arrival order, at most maxBatch each), a failed batch fails only the calls that fail alone, and a
// process keeps one batcher per kind of statement.
import { describe, expect, it } from 'vitest';
import { createStatementBatcher, createStatementBatching, slotsOfPool } from '../../../src/db/statement-batching';

/** A runBatch whose statements finish only when the test says so; it records every batch it was given. */
function heldStatements() {
  const batches: number[][] = [];
  const pending: Array<() => void> = [];
  const runBatch = (inputs: readonly number[]) => {
    batches.push([...inputs]);
    return new Promise<number[]>((done) => pending.push(() => done(inputs.map((n) => n * 10))));
  };
  /** Finishes the oldest running statement and lets the batcher send what waited. */
  const finishOne = async () => {
    pending.shift()!();
    await new Promise((done) => setTimeout(done, 0));
  };
  return { batches, runBatch, finishOne, running: () => pending.length };
}

describe('createStatementBatcher', () => {
  it('sends each call at once while a slot is free: a quiet server batches nothing', async () => {
    const held = heldStatements();
    const batcher = createStatementBatcher(held.runBatch, { maxInFlight: 3, maxBatch: 16 });
    const answers = [batcher.run(1), batcher.run(2), batcher.run(3)];
    expect(held.batches).toEqual([[1], [2], [3]]);
    for (let i = 0; i < 3; i++) await held.finishOne();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
    expect(batcher.counts()).toEqual({ calls: 3, statements: 3, largestBatch: 1 });
  });

  it('keeps the calls that arrive while every slot is busy and sends them together, in order, when one frees', async () => {
    const held = heldStatements();
    const batcher = createStatementBatcher(held.runBatch, { maxInFlight: 2, maxBatch: 16 });
    const answers = [1, 2, 3, 4, 5, 6].map((n) => batcher.run(n));
    expect(held.batches).toEqual([[1], [2]]);
    await held.finishOne();
    expect(held.batches).toEqual([[1], [2], [3, 4, 5, 6]]);
    expect(held.running()).toBe(2);
    await held.finishOne();
    await held.finishOne();
    expect(await Promise.all(answers)).toEqual([10, 20, 30, 40, 50, 60]);
    expect(batcher.counts()).toEqual({ calls: 6, statements: 3, largestBatch: 4 });
  });

  it('puts at most maxBatch calls in one statement and never runs more than maxInFlight statements', async () => {
    const held = heldStatements();
    const batcher = createStatementBatcher(held.runBatch, { maxInFlight: 1, maxBatch: 3 });
    const answers = Array.from({ length: 8 }, (_, i) => batcher.run(i));
    while (held.running() > 0) {
      expect(held.running()).toBe(1);
      await held.finishOne();
    }
    expect(held.batches).toEqual([[0], [1, 2, 3], [4, 5, 6], [7]]);
    expect(await Promise.all(answers)).toEqual([0, 10, 20, 30, 40, 50, 60, 70]);
  });

  it('runs a failed batch again call by call, so only the call that fails alone gets the error', async () => {
    const seen: number[][] = [];
    const batcher = createStatementBatcher(
      async (inputs: readonly number[]) => {
        seen.push([...inputs]);
        await new Promise((done) => setTimeout(done, 1));
        if (inputs.includes(13)) throw new Error('thirteen');
        return inputs.map((n) => n + 1);
      },
      { maxInFlight: 1, maxBatch: 16 },
    );
    const answers = await Promise.allSettled([1, 2, 13, 4].map((n) => batcher.run(n)));
    expect(answers).toEqual([
      { status: 'fulfilled', value: 2 },
      { status: 'fulfilled', value: 3 },
      { status: 'rejected', reason: new Error('thirteen') },
      { status: 'fulfilled', value: 5 },
    ]);
    expect(seen).toEqual([[1], [2, 13, 4], [2], [13], [4]]);
    // The slot is free again: the next call goes at once and alone.
    expect(await batcher.run(7)).toBe(8);
    expect(batcher.counts()).toMatchObject({ calls: 5, statements: 6 });
  });

  it('fails every call of a batch that gives the wrong number of answers, instead of handing one the wrong page', async () => {
    const batcher = createStatementBatcher(async (inputs: readonly number[]) => inputs.slice(1), {
      maxInFlight: 1,
      maxBatch: 16,
    });
    const answers = await Promise.allSettled([1, 2, 3].map((n) => batcher.run(n)));
    expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect((answers[0] as PromiseRejectedResult).reason).toEqual(new Error('a batch of 1 calls gave 0 answers'));
  });
});

describe('createStatementBatching', () => {
  it('makes one batcher per kind, shared by every later caller, with the process’s slots', async () => {
    const batching = createStatementBatching({ slots: 1 });
    const held = heldStatements();
    const pages = batching.batcher('pages', held.runBatch, { maxBatch: 16 });
    expect(batching.batcher('pages', async () => [], { maxBatch: 16 })).toBe(pages);
    expect(batching.batcher('other', held.runBatch, { maxBatch: 16 })).not.toBe(pages);
    const answers = [1, 2, 3].map((n) => pages.run(n));
    expect(held.batches).toEqual([[1]]);
    await held.finishOne();
    await held.finishOne();
    expect(await Promise.all(answers)).toEqual([10, 20, 30]);
    expect(held.batches).toEqual([[1], [2, 3]]);
  });

  it('never makes a call wait with infinite slots (the default), and leaves a pool one connection free', () => {
    const held = heldStatements();
    const pages = createStatementBatching({ slots: Infinity }).batcher('pages', held.runBatch, { maxBatch: 16 });
    for (let n = 0; n < 40; n++) void pages.run(n);
    expect(held.batches).toHaveLength(40);
    expect([1, 2, 4, 10].map(slotsOfPool)).toEqual([1, 1, 3, 9]);
  });
});
