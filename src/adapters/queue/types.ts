/** Background steps: the pipeline's, and the webhook delivery. Bodies carry ids only; the handler reads the current state. */
export type JobStep = 'crawl' | 'review' | 'sweep' | 'webhook' | 'refund';

export interface JobMessage {
  site_id?: string;
  /** The webhook step's delivery (webhook_deliveries.id). */
  delivery_id?: string;
}

/** A step's own retry schedule, when the queue's default (a few quick retries) is not the right one. */
export interface RetryPolicy {
  /** Retries after the first delivery (QStash's `retries`). */
  retries: number;
  /** The local queue's wait before retry n (0-based), in ms. */
  delayMs: (retried: number) => number;
  /** The same schedule as QStash's Upstash-Retry-Delay expression (ms; the variable `retried` counts from 0). */
  qstashExpression: string;
}

export interface EnqueueOptions {
  /** Same id within the provider's window = delivered once (QStash deduplication). */
  deduplicationId?: string;
  delaySeconds?: number;
  retry?: RetryPolicy;
}

/** Dispatches a step: QStash in production, an in-process queue locally. */
export interface JobQueue {
  readonly kind: 'qstash' | 'local';
  enqueue(step: JobStep, message: JobMessage, options?: EnqueueOptions): Promise<void>;
}

/** What runs a step: the same function behind POST /api/jobs/{step} and the local queue. */
export type JobRunner = (step: JobStep, message: JobMessage) => Promise<void>;
