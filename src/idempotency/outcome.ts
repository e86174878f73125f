import { ServiceError, errorBody, type ErrorBody } from '../errors';

/**
 * What a key replays, wire-neutral (each surface renders it as it renders a fresh answer, so the replay has
 * the original status and body): the verb's result, or the error it answered with.
 */
export type StoredOutcome =
  | { result: unknown }
  | { error: Omit<ErrorBody['error'], 'retry_after_seconds'> & Pick<ServiceError['details'], 'field' | 'values'> };

/**
 * Which failures a key remembers (docs/idempotency.md): Stripe's rule, "a result is saved once the endpoint
 * started executing", so a decision of the verb (409 already_submitted) replays. Not saved, so that a retry
 * runs again: invalid input (400, the caller fixes the body and may keep the key), rate limits (429), and
 * anything on our side (5xx, 503 database unavailable, a crash): those changed nothing.
 */
export function isRememberedError(error: ServiceError): boolean {
  return error.status > 400 && error.status < 500 && error.status !== 429;
}

export function errorOutcome(error: ServiceError): StoredOutcome {
  // The field is not in the body, yet a form shows a replayed refusal next to its field just like a fresh one.
  const { field, values } = error.details;
  return {
    error: {
      ...errorBody(error).error,
      ...(field !== undefined && { field }),
      ...(values !== undefined && { values }),
    },
  };
}

/** The stored answer again: the result, or the same ServiceError thrown. */
export function replayOutcome<T>(outcome: StoredOutcome): T {
  if ('error' in outcome) {
    const { code, message, site_id, field, values } = outcome.error;
    throw new ServiceError(code, message, {
      ...(site_id && { site_id }),
      ...(field !== undefined && { field }),
      ...(values !== undefined && { values }),
    });
  }
  return outcome.result as T;
}
