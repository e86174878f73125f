import type { Deps } from '../deps';
import type { Actor } from '../accounts/actor';
import { submitSite, type SubmitResult } from '../submissions/submit';
import type { SubmitInput } from '../submissions/submit-input';
import { runIdempotent } from './run-idempotent';

/**
 * Submit with an optional Idempotency-Key: the one entry REST (both paths) and MCP share, so a key used on
 * one surface replays on the other. Without a key it is exactly submitSite.
 */
export function submitSiteIdempotently({
  deps,
  actor,
  input,
  idempotencyKey,
  onReplay,
}: {
  deps: Deps;
  actor: Actor;
  input: SubmitInput;
  idempotencyKey?: string;
  onReplay?: () => void;
}): Promise<SubmitResult> {
  const run = () => submitSite({ deps, actor, input });
  if (idempotencyKey === undefined) return run();
  return runIdempotent({
    deps,
    accountId: actor.accountId,
    key: idempotencyKey,
    operation: 'submit_site',
    input,
    run,
    onReplay,
  });
}
