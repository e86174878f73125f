// One `tooldir submit` = one Idempotency-Key, kept across the CLI's own retries (docs/idempotency.md, docs/cli.md).
import type { ApiClient, SubmitOutcome } from './api-client';
import type { SubmitRequest } from './api-types';
import { CliError } from './cli-error';
import { ExitCode } from './exit-codes';

/** At most this many sends of one submit; the waits between them grow (1 s, 2 s). */
export const SUBMIT_ATTEMPTS = 3;
const backoffMs = (attempt: number) => 1000 * 2 ** (attempt - 1);

export interface SubmitRetryOptions {
  sleep: (ms: number) => Promise<void>;
  /** Tells the user why it waits (stderr), before each retry. */
  onRetry: (line: string) => void;
  /** Per invocation; random by default. */
  idempotencyKey?: string;
}

/**
 * Submits, retrying only when no answer arrived (the request may or may not have reached the server) or when
 * the server says the first attempt with this key is still running. Every attempt carries the same key, so
 * the server runs the submit at most once: a lost 201 or 402 comes back as the same answer (same site_id,
 * same checkout link). Any real answer (an error included) ends the loop.
 */
export async function submitWithRetries(
  client: ApiClient,
  request: SubmitRequest,
  options: SubmitRetryOptions,
): Promise<SubmitOutcome> {
  const key = options.idempotencyKey ?? crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.submitSite(request, key);
    } catch (error) {
      const retryable =
        error instanceof CliError && (error.code === 'network_error' || error.code === 'idempotency_in_progress');
      if (!retryable) throw error;
      if (attempt >= SUBMIT_ATTEMPTS) throw error.code === 'network_error' ? error : stillRunning(error);
      const wait = backoffMs(attempt);
      const why = error.code === 'network_error' ? 'no answer from the API' : 'the first attempt is still running';
      options.onRetry(
        `Retrying the submit in ${wait / 1000} s (${why}; attempt ${attempt + 1} of ${SUBMIT_ATTEMPTS}, same Idempotency-Key)…`,
      );
      await options.sleep(wait);
    }
  }
}

/** A 409 that is not "already submitted": exit 1 with a hint, rather than exit 4. */
const stillRunning = (error: CliError) =>
  new CliError(error.code, error.message, {
    exitCode: ExitCode.error,
    httpStatus: error.httpStatus,
    extraLines: ['The server is still working on this submit; check `tooldir list` or `tooldir status <url>` shortly.'],
  });
