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
