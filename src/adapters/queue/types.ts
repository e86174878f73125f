/** Background steps of the pipeline. Bodies carry ids only; the handler reads the current state. */
export type JobStep = 'crawl' | 'review' | 'sweep';

export interface JobMessage {
  site_id?: string;
}

export interface EnqueueOptions {
  /** Same id within the provider's window = delivered once (QStash deduplication). */
  deduplicationId?: string;
  delaySeconds?: number;
}

/** Dispatches a step: QStash in production, an in-process queue locally. */
export interface JobQueue {
  readonly kind: 'qstash' | 'local';
  enqueue(step: JobStep, message: JobMessage, options?: EnqueueOptions): Promise<void>;
}

/** What runs a step: the same function behind POST /api/jobs/{step} and the local queue. */
export type JobRunner = (step: JobStep, message: JobMessage) => Promise<void>;
