// The Idempotency-Key wire format of submit (docs/idempotency.md): the request header, the replay header,
// and their OpenAPI description. The rules live in src/idempotency/.
import type { Context } from 'hono';
import { ServiceError } from '../../src/errors';
import { IDEMPOTENCY, idempotencyKeyMessage, isValidIdempotencyKey } from '../../src/idempotency/key';
import { errorContent } from './error-responses';

/** The header's value, or undefined when absent; a present but malformed key is 400 and changes nothing. */
export function readIdempotencyKey(c: Context): string | undefined {
  const value = c.req.header('idempotency-key');
  if (value === undefined) return undefined;
  if (!isValidIdempotencyKey(value)) throw new ServiceError('invalid_request', idempotencyKeyMessage);
  return value;
}

/** A replayed answer says so, as Stripe's does. */
export const markReplayed = (c: Context) => () => c.header('Idempotent-Replayed', 'true');

export const idempotencyKeyParameter = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    `Makes a retry safe (Stripe's semantics): within ${IDEMPOTENCY.retentionHours} hours, a repeat with the same key ` +
    'and the same body from the same account answers the first status and body again (same site_id, same ' +
    'checkout_url) with `Idempotent-Replayed: true`, creating nothing and using no quota. The same key with another ' +
    'body is 422 idempotency_key_reused; a repeat while the first is still running is 409 idempotency_in_progress ' +
    'with Retry-After. 400 and 429 answers and failures on our side (5xx) are not remembered, so a retry with the ' +
    'same key runs again. Shared with MCP submit_site `idempotency_key`.',
  schema: {
    type: 'string' as const,
    minLength: 1,
    maxLength: IDEMPOTENCY.maxLength,
    pattern: '^[\\x20-\\x7E]+$',
    example: '4f1c2b8e-5d0a-4c36-9a57-0c1c4e7b9d21',
  },
};

export const idempotentReplayedHeader = {
  'Idempotent-Replayed': {
    description:
      'Present (`true`) when this answer is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

export const idempotencyErrors = {
  422: errorContent('Idempotency-Key already used with a different body (code idempotency_key_reused)'),
};

export const idempotencyInProgress =
  'or a request with the same Idempotency-Key is still in progress (code idempotency_in_progress; see Retry-After)';
