// Where a webhook may point: the crawler's address policy (src/crawler/resolve-and-check.ts), plus
// https only outside local mode. Checked when the endpoint is registered and again before every attempt (a
// name can be re-pointed at a private address later); docs/webhooks.md "Targets".
import type { Deps } from '../deps';
import { checkTarget, type CrawlFailureKind } from '../crawler';
import { urlSpellingProblem } from '../url-spelling';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export type TargetVerdict =
  | { ok: true; url: URL }
  | { ok: false; kind: CrawlFailureKind | 'not_https'; message: string };

/** How long registering an endpoint may wait for its name to resolve (deps.webhooks.timeoutMs when set). */
const REGISTER_LOOKUP_MS = 10_000;

// What the account is told: the kind of refusal, never an address our resolver returned.
const REFUSALS: Partial<Record<CrawlFailureKind, string>> = {
  blocked_address: 'the address is not public (loopback, private and link-local targets are refused)',
  blocked_port: 'only ports 80 and 443 are allowed',
  dns_error: 'the host name could not be resolved',
};

/** Plain http and private addresses are for tests and demos: local mode or WEBHOOK_ALLOW_PRIVATE=true. */
export function webhookAllowsHttp(deps: Pick<Deps, 'config'>): boolean {
  return deps.config.local || deps.config.webhooks.allowPrivate;
}

/**
 * The URL's shape alone (no DNS): what the request schema can say synchronously. A text URL parsers read
 * differently (a backslash, a tab) is refused; the endpoint is stored as the parser's `href`.
 */
export function checkWebhookUrlShape(value: string, allowHttp: boolean): string | undefined {
  if (value.length > WEBHOOK_URL_MAX_LENGTH) return `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  const spelling = urlSpellingProblem(value, 'url');
  if (spelling) return spelling;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute https URL';
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return 'url must be an https URL';
  if (url.username || url.password) return 'url must not contain credentials';
  return undefined;
}

/**
 * Shape, port, name and every resolved address. `signal` bounds the lookup (an attempt's deadline; 10 s when
 * registering): a name that does not resolve in time is refused like one that does not resolve, never a 5xx.
 */
export async function checkWebhookTarget(
  deps: Pick<Deps, 'config' | 'webhooks'>,
  value: string,
  given?: AbortSignal,
): Promise<TargetVerdict> {
  const signal = given ?? AbortSignal.timeout(deps.webhooks.timeoutMs ?? REGISTER_LOOKUP_MS);
  const shape = checkWebhookUrlShape(value, webhookAllowsHttp(deps));
  if (shape) return { ok: false, kind: 'not_https', message: shape };
  let decision: Awaited<ReturnType<typeof checkTarget>>;
  try {
    decision = await checkTarget(value, {
      resolver: deps.webhooks.resolver,
      allowPrivate: deps.config.webhooks.allowPrivate,
      signal,
    });
  } catch (error) {
    if (!signal.aborted) throw error;
    return { ok: false, kind: 'timeout', message: 'url refused: the host name could not be resolved in time' };
  }
  if (decision.ok) return { ok: true, url: decision.url };
  const kind = decision.error.kind;
  return { ok: false, kind, message: `url refused: ${REFUSALS[kind] ?? 'it cannot receive webhooks'}` };
}
