// One HTTP attempt: target re-checked (a name may now point somewhere private), POST with a 10 s deadline,
// redirects never followed, the response body never read. docs/webhooks.md "Delivery".
import type { Deps } from '../deps';
import { describeFailure } from '../crawler/crawl-failures';
import { discardBody } from '../crawler/safe-fetch';
import { checkWebhookTarget } from './target';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface AttemptOutcome {
  succeeded: boolean;
  statusCode: number | null;
  /** What went wrong, for the deliveries list: names the kind of failure, never an address of ours. */
  error: string | null;
  durationMs: number;
}

const REDIRECT = /^3\d\d$/;

export async function postEvent(
  deps: Pick<Deps, 'config' | 'webhooks'>,
  target: string,
  body: string,
  headers: Record<string, string>,
): Promise<AttemptOutcome> {
  const started = Date.now();
  const timeoutMs = deps.webhooks.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error('webhook deadline')), timeoutMs);
  const done = (statusCode: number | null, error: string | null): AttemptOutcome => ({
    succeeded: statusCode !== null && statusCode >= 200 && statusCode < 300 && error === null,
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  try {
    const verdict = await checkWebhookTarget(deps, target, controller.signal);
    if (!verdict.ok) return done(null, verdict.message);
    const response = await deps.webhooks.fetch(verdict.url.href, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'user-agent': 'tooldir-webhooks/1', ...headers },
      redirect: 'manual',
      signal: controller.signal,
    });
    discardBody(response);
    if (REDIRECT.test(String(response.status)) || response.type === 'opaqueredirect') {
      return done(response.status || null, 'redirects are not followed: answer 2xx at this URL');
    }
    return done(response.status, null);
  } catch (error) {
    if (controller.signal.aborted) return done(null, `no answer within ${Math.round(timeoutMs / 1000)} s`);
    const kind = describeFailure(error, controller.signal).kind;
    return done(
      null,
      kind === 'blocked_address'
        ? 'the address is not public'
        : kind === 'dns_error'
          ? 'the host name could not be resolved'
          : 'the endpoint could not be reached',
    );
  } finally {
    clearTimeout(timer);
  }
}
