import type { Deps } from '../deps';
import { ServiceError, isServiceError } from '../errors';
import { claimIdempotencyKey } from './claim';
import { IDEMPOTENCY } from './key';
import { errorOutcome, isRememberedError, replayOutcome } from './outcome';
import { requestHash } from './request-hash';
import { releaseIdempotencyKey, storeIdempotentOutcome } from './settle';

export interface IdempotentCall<T> {
  deps: Deps;
  accountId: string;
  /** Already validated (src/idempotency/key.ts). */
  key: string;
  /** Names the verb, so one key cannot be replayed as another operation. */
  operation: string;
  /** The validated input: the same key with another input is idempotency_key_reused. */
  input: unknown;
  run: () => Promise<T>;
  /** Called before a stored outcome is returned or thrown (REST sets Idempotent-Replayed: true). */
  onReplay?: () => void;
}

/**
 * Runs `run` at most once per account and key within 24 hours, with Stripe's semantics (docs/idempotency.md):
 * the first use claims the key (one statement) and stores the outcome (a second); a repeat with the same
 * input gets that outcome again without running anything (no row, no quota, no checkout session); another
 * input is refused (422), and a use while the first is still running is told to retry (409 + Retry-After).
 */
export async function runIdempotent<T>(call: IdempotentCall<T>): Promise<T> {
  const { deps } = call;
  const hash = await requestHash(call.operation, call.input);
  const claim = await claimIdempotencyKey(deps.db, { accountId: call.accountId, key: call.key, requestHash: hash });
  if (claim.kind === 'mismatch') {
    throw new ServiceError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request body. Use a new key for a new request.',
    );
  }
  if (claim.kind === 'in_progress') {
    throw new ServiceError(
      'idempotency_in_progress',
      'A request with this Idempotency-Key is still in progress. Retry shortly with the same key.',
      { retryAfterSeconds: IDEMPOTENCY.retryAfterSeconds },
    );
  }
  if (claim.kind === 'replay') {
    call.onReplay?.();
    return replayOutcome<T>(claim.outcome);
  }

  const held = { accountId: call.accountId, key: call.key, token: claim.token };
  let result: T;
  try {
    result = await call.run();
  } catch (error) {
    if (isServiceError(error) && isRememberedError(error)) await store(deps, held, errorOutcome(error));
    else await release(deps, held);
    throw error;
  }
  await store(deps, held, { result });
  return result;
}

/**
 * The verb's effect already happened, so failing to remember it must not turn its answer into an error: the
 * key stays in progress until its lock expires, and a retry then meets the duplicate rules (no second effect).
 */
async function store(
  deps: Deps,
  held: Parameters<typeof storeIdempotentOutcome>[1],
  outcome: Parameters<typeof storeIdempotentOutcome>[2],
) {
  try {
    await storeIdempotentOutcome(deps.db, held, outcome);
  } catch (error) {
    deps.log.error('idempotency: outcome not stored', { err: String(error) });
  }
}

/** Best effort: a key we fail to release frees itself when its lock expires (IDEMPOTENCY.lockSeconds). */
async function release(deps: Deps, held: Parameters<typeof releaseIdempotencyKey>[1]) {
  try {
    await releaseIdempotencyKey(deps.db, held);
  } catch (error) {
    deps.log.warn('idempotency: key not released', { err: String(error) });
  }
}
