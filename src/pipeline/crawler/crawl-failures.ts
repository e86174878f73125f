// Turning thrown things (aborts, fetch rejections) into the crawler's error values.
import type { CrawlError } from './crawl-result.js';

/** Thrown by a connection-time guard (the Node pinned fetch) when a host resolves to a refused address. */
export class BlockedAddressError extends Error {
  override readonly name = 'BlockedAddressError';
}

/** The abort reason used when the crawl's overall deadline passes. */
export class CrawlDeadlineError extends Error {
  override readonly name = 'CrawlDeadlineError';
}

/** Classifies a rejection from fetch, a body read or a resolver, given the crawl's signal. */
export function describeFailure(error: unknown, signal: AbortSignal): CrawlError {
  if (signal.aborted) {
    return signal.reason instanceof CrawlDeadlineError
      ? { code: 'timeout', message: signal.reason.message }
      : { code: 'network_error', message: 'the crawl was aborted' };
  }
  const blocked = findInCauseChain(error, (candidate) => candidate instanceof BlockedAddressError || candidate.name === 'BlockedAddressError');
  if (blocked) return { code: 'blocked_address', message: blocked.message };
  return { code: 'network_error', message: describeNetworkError(error) };
}

function findInCauseChain(error: unknown, predicate: (candidate: Error) => boolean): Error | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (predicate(current)) return current;
    current = current.cause;
  }
  return null;
}

/** "fetch failed" alone helps nobody: append the innermost cause (e.g. "connect ECONNREFUSED 127.0.0.1:80"). */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current.message) messages.push(current.message);
    current = current.cause;
  }
  return messages.join(': ').slice(0, 500);
}
