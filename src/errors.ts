/** The one table from error code to HTTP status. Every error body the service sends uses one of these codes. */
export const errorStatus = {
  invalid_request: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  already_submitted: 409,
  conflict: 409,
  invalid_state: 409,
  /** A first use of the same Idempotency-Key is still running (docs/idempotency.md); sent with Retry-After. */
  idempotency_in_progress: 409,
  too_many_webhooks: 409,
  payload_too_large: 413,
  /** The Idempotency-Key was first used with another request body. */
  idempotency_key_reused: 422,
  rate_limited: 429,
  plan_unavailable: 500,
  checkout_failed: 500,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

/** Every code of the table: openapi.json declares an error body's `code` as this enum. */
export const errorCodes = Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]];

/** A failure a caller can act on; rendered as `{"error":{"code","message"}}` with the table's status. */
export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: {
      site_id?: string;
      retryAfterSeconds?: number;
      /** rate_limited: the refusing bucket's state, for the RateLimit-* headers (src/rate-limits/check.ts). */
      rateLimit?: { limit: number; remaining: number; resetSeconds: number };
      /**
       * The input field the error is about, spelled as the caller sends it (`url`, `categories`, `categories.1` for
       * an item of a list): a form shows the error next to that field, without reading the message. Not part of the
       * error body (errorBody); an idempotent replay keeps it (src/idempotency/outcome.ts).
       */
      field?: string;
      /** The values of `field` that were refused (unknown category slugs), for a form that names them in its words. */
      values?: readonly string[];
    } = {},
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
  }

  get status(): (typeof errorStatus)[ErrorCode] {
    return errorStatus[this.code];
  }
}

export const isServiceError = (e: unknown): e is ServiceError => e instanceof ServiceError;

/** The part of a failed schema check (a zod error) an error is built from: zod 3 and 4 agree on it. */
export interface SchemaFailure {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/** The field a schema issue is about: its path, dotted (`categories.1`); none for the input as a whole. */
export const issueField = (issue: { path: ReadonlyArray<PropertyKey> } | undefined): string | undefined =>
  issue?.path.length ? issue.path.map(String).join('.') : undefined;

/** A failed schema check as invalid_request: the first issue's message as written, its path as `details.field`. */
export function invalidInput(failure: SchemaFailure, fallback: string): ServiceError {
  const issue = failure.issues[0];
  const field = issueField(issue);
  return new ServiceError('invalid_request', issue?.message ?? fallback, field === undefined ? {} : { field });
}

/** The reference's error body, `{"error":{"code","message"}}` (+ site_id on 409 for the owner). */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; site_id?: string; retry_after_seconds?: number };
}

/**
 * The one way an error body is built: REST responses, MCP tool results, the idempotency replay's stored answer
 * and the Worker's configuration failure all render a ServiceError through it. `retryAfterInBody`: MCP cannot
 * send a Retry-After header, so the body carries retry_after_seconds instead.
 */
export function errorBody(
  error: ServiceError,
  { retryAfterInBody = false }: { retryAfterInBody?: boolean } = {},
): ErrorBody {
  const body: ErrorBody['error'] = { code: error.code, message: error.message };
  if (error.status === 409 && error.details.site_id) body.site_id = error.details.site_id;
  if (retryAfterInBody && error.details.retryAfterSeconds !== undefined)
    body.retry_after_seconds = error.details.retryAfterSeconds;
  return { error: body };
}
