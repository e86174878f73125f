import { describe, expect, it } from 'vitest';
import { createNodeExecutionContext } from '../../../functions/node/execution-context';

describe('the Node execution context', () => {
  it('drain waits for every deferred job, including ones deferred while draining', async () => {
    const { ctx, drain } = createNodeExecutionContext();
    const done: string[] = [];
    let release!: () => void;
    ctx.waitUntil(new Promise<void>((r) => (release = r)).then(() => done.push('first')));
    ctx.waitUntil(
      Promise.resolve().then(() => {
        ctx.waitUntil(new Promise((r) => setTimeout(r, 20)).then(() => done.push('late')));
      }),
    );
    const drained = drain().then(() => done.push('drained'));
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toEqual([]);
    release();
    await drained;
    expect(done).toEqual(['first', 'late', 'drained']);
  });

  it('a failed job neither rejects drain nor goes unhandled', async () => {
    const { ctx, drain } = createNodeExecutionContext();
    ctx.waitUntil(Promise.reject(new Error('deferred work failed')));
    await expect(drain()).resolves.toBeUndefined();
  });
});
