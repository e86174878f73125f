import type { Deps } from '../../src/deps';
import { runHealthRound } from '../../src/health/run-round';

const ROUND_INTERVAL_MS = 60_000;

/**
 * Without QStash nothing schedules the re-check, so the Node process runs a round of due tools every minute itself
 * (docs/health.md "Schedule"), unless HEALTH_CHECKS=off. A round still running when the next minute comes is not
 * doubled: the timer waits for it. Returns the function that stops the timer.
 */
export function startLocalHealthTimer(deps: Deps): () => void {
  if (deps.queue.kind !== 'local' || !deps.config.health.checks) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runHealthRound(deps)
      .catch((error: unknown) => deps.log.error('health round failed', { err: String(error) }))
      .finally(() => {
        running = false;
      });
  }, ROUND_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
