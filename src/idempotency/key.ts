import { z } from 'zod';

/**
 * The rules of an Idempotency-Key (docs/idempotency.md, docs/decisions.md "Submitter features"):
 * Stripe's semantics, scoped to the account, kept 24 hours.
 */
export const IDEMPOTENCY = {
  /** How long a key answers with its first outcome; after that it is free again (and the sweep deletes it). */
  retentionHours: 24,
  /** How long a claim holds a key before a crashed request's key can be taken over: longer than any submit. */
  lockSeconds: 60,
  /** What a concurrent use of a key still in progress is told to wait (Retry-After). */
  retryAfterSeconds: 1,
  maxLength: 255,
} as const;

/** 1–255 printable ASCII characters (space to tilde): what every HTTP stack carries unchanged in a header. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export const idempotencyKeyMessage = `Idempotency-Key must be 1 to ${IDEMPOTENCY.maxLength} printable ASCII characters (a UUID is a good choice).`;

/** The one check of a key, for REST's header and MCP's `idempotency_key` argument. */
export function isValidIdempotencyKey(value: string): boolean {
  return value.length >= 1 && value.length <= IDEMPOTENCY.maxLength && PRINTABLE_ASCII.test(value);
}

/** The key as a zod field; `label` names it in the message (the header or the MCP argument). */
export const idempotencyKeySchema = (label: string) =>
  z
    .string({ error: `${label} must be a string` })
    .refine(isValidIdempotencyKey, { message: idempotencyKeyMessage.replace('Idempotency-Key', label) });
