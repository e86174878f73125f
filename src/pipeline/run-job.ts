import type { Deps } from '../deps';
import type { JobMessage, JobStep } from '../adapters/queue/types';

/**
 * Runs one pipeline step: the function behind POST /api/jobs/{step} and the local queue alike.
 * Throwing means "retry me" (QStash redelivers; the local queue retries after a few seconds).
 */
export async function runJob(deps: Deps, step: JobStep, message: JobMessage): Promise<void> {
  deps.log.debug('job step not built yet', { step, site_id: message.site_id });
}
