import type { Deps } from '../deps';
import type { JobMessage, JobStep } from '../adapters/queue/types';
import { crawlSite, type CrawlOutcome } from '../pipeline/crawl-site';
import { reviewSite, type ReviewOutcome } from '../pipeline/review-site';
import { runSweep, type SweepReport } from './sweep';
import { deliverWebhook, type WebhookJobResult } from '../webhooks/deliver-webhook';
import { announceWebhookEvents } from '../webhooks/announce';

export type JobResult =
  | CrawlOutcome
  | ReviewOutcome
  | ({ outcome: 'swept' } & SweepReport)
  | WebhookJobResult
  | { outcome: 'skipped'; reason: string };

/**
 * Runs one pipeline step: the function behind POST /api/jobs/{step} and the local queue alike.
 * Throwing means "retry me" (QStash redelivers; the local queue retries after a few seconds).
 */
export async function runJob(deps: Deps, step: JobStep, message: JobMessage): Promise<JobResult> {
  if (step === 'webhook') {
    return message.delivery_id
      ? deliverWebhook(deps, message.delivery_id)
      : { outcome: 'skipped', reason: 'no delivery_id' };
  }
  try {
    return await runPipelineStep(deps, step, message);
  } finally {
    // The step's status changes (a failed attempt's too) wrote webhook outbox rows (docs/webhooks.md): enqueue them.
    await announceWebhookEvents(deps, { sweep: step === 'sweep' });
  }
}

async function runPipelineStep(deps: Deps, step: JobStep, message: JobMessage): Promise<JobResult> {
  if (step === 'sweep') return { outcome: 'swept', ...(await runSweep(deps)) };
  if (!message.site_id) {
    deps.log.warn('job without site_id ignored', { step });
    return { outcome: 'skipped', reason: 'no site_id' };
  }
  return step === 'crawl' ? crawlSite(deps, message.site_id) : reviewSite(deps, message.site_id);
}
