// Turning thrown things (aborts, fetch rejections) into the crawler's failure values.
import type { CrawlFailure } from './crawl-result';

/** Thrown by a connection-time guard (the Node pinned fetch) when a host resolves to a refused address. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
}

/** The abort reason used when the crawl's overall deadline passes. */
export class CrawlDeadlineError extends Error {
  override readonly name = 'CrawlDeadlineError';
}

// Error codes of Node's resolver (getaddrinfo / c-ares) and of undici's own timers, as found in a cause chain.
const DNS_ERROR_CODES = new Set([
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EAI_NODATA',
  'ENODATA',
  'ESERVFAIL',
  'ETIMEOUT',
]);
const TIMEOUT_ERROR_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Classifies a rejection from fetch, a body read or a resolver, given the crawl's signal. */
export function describeFailure(error: unknown, signal: AbortSignal): CrawlFailure {
  if (signal.aborted) {
    return signal.reason instanceof CrawlDeadlineError
      ? { kind: 'timeout', detail: signal.reason.message }
      : { kind: 'network_error', detail: 'the crawl was aborted' };
  }
  const detail = describeNetworkError(error);
  const chain = causeChain(error);
  if (chain.some((candidate) => candidate instanceof BlockedAddressError || candidate.name === 'BlockedAddressError')) {
    return { kind: 'blocked_address', detail };
  }
  const codes = chain
    .map((candidate) => (candidate as { code?: unknown }).code)
    .filter((code) => typeof code === 'string');
  if (codes.some((code) => DNS_ERROR_CODES.has(code))) return { kind: 'dns_error', detail };
  if (codes.some((code) => TIMEOUT_ERROR_CODES.has(code))) return { kind: 'timeout', detail };
  return { kind: 'network_error', detail };
}

function causeChain(error: unknown): Error[] {
  const chain: Error[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    chain.push(current);
    current = current.cause;
  }
  return chain;
}

/** "fetch failed" alone helps no operator: append every cause (e.g. "connect ECONNREFUSED 127.0.0.1:80"). */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 500);
  return causeChain(error)
    .map((candidate) => candidate.message)
    .filter(Boolean)
    .join(': ')
    .slice(0, 500);
}
