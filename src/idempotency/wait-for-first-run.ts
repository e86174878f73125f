import { isServiceError } from '../errors';

/** A double click reaches the server while the first click still runs: a few seconds covers any real submit. */
const WAIT_MS = 5_000;
const POLL_MS = 200;

/**
 * Runs `attempt` (an idempotent call); while the first request with the same key is still running
 * (`idempotency_in_progress`), waits and asks again, so a repeat gets the first request's answer instead of an
 * error. After `waitMs` the in-progress error is thrown as it is. The forms of the website use it: a double click
 * or a reloaded POST lands where the first one did.
 * @example const result = await waitForFirstRun(() => submitSiteIdempotently({ deps, actor, input, idempotencyKey }));
 */
export async function waitForFirstRun<T>(attempt: () => Promise<T>, waitMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!isServiceError(error) || error.code !== 'idempotency_in_progress' || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
