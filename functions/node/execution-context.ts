import type { ExecutionContext } from 'hono';

/**
 * Node's stand-in for the Workers ExecutionContext: `waitUntil` keeps each deferred job (last-used stamps,
 * expiring replaced checkout links) in a set so that a graceful stop waits for them instead of cutting
 * them off. Handing one to every request also spares Hono's `c.executionCtx` getter its throw.
 */
export function createNodeExecutionContext(): { ctx: ExecutionContext; drain(): Promise<void> } {
  const pending = new Set<Promise<unknown>>();
  const ctx: ExecutionContext = {
    waitUntil(promise) {
      const tracked: Promise<unknown> = promise.catch(() => {}).finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    passThroughOnException() {},
    props: {},
  };
  return {
    ctx,
    drain: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
