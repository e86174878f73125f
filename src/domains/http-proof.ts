// The HTTP proof: the token as the body of /.well-known/tooldir-verification.txt on the domain (or www.), fetched by
// the crawler's safe fetch (address policy on every hop, no redirect to another host, 10 s, 4 KiB).
import type { CrawlTransport } from '../deps';
import { fetchFollowingCheckedRedirects, discardBody } from '../crawler/safe-fetch';
import { readBoundedBody } from '../crawler/read-body';
import { CRAWL_DEFAULTS } from '../crawler/crawl-page';
import { publicCrawlError } from '../crawler/crawl-error-messages';
import { DNS_RECORD_PREFIX, httpProofUrls } from './proof-locations';
import { HTTP_PROOF_MAX_BYTES } from './proof-rules';
import type { ProofOutcome, ProofSubject } from './proof-outcome';

export interface HttpProofOptions {
  allowPrivate: boolean;
  /** A local `<name>.localhost` domain's port (CRAWL_ALLOW_PRIVATE only). */
  port?: number;
}

/** Tries the domain's file, then www.'s; holds when one body, trimmed, is the token. */
export async function checkHttpProof(
  transport: CrawlTransport,
  subject: ProofSubject,
  options: HttpProofOptions,
  signal: AbortSignal,
): Promise<ProofOutcome> {
  const reasons: string[] = [];
  for (const url of httpProofUrls(subject.domain, { allowLocalNames: options.allowPrivate, port: options.port })) {
    const outcome = await checkOneFile(transport, url, subject, options, signal);
    if (outcome.ok) return outcome;
    reasons.push(`${url}: ${outcome.reason}`);
  }
  return { ok: false, reason: reasons.join('; ') };
}

async function checkOneFile(
  transport: CrawlTransport,
  url: string,
  subject: ProofSubject,
  options: HttpProofOptions,
  signal: AbortSignal,
): Promise<ProofOutcome> {
  const fetched = await fetchFollowingCheckedRedirects(url, {
    fetch: transport.fetch,
    resolver: transport.resolver,
    allowPrivate: options.allowPrivate,
    maxRedirects: CRAWL_DEFAULTS.maxRedirects,
    signal,
    headers: { 'user-agent': CRAWL_DEFAULTS.userAgent, accept: 'text/plain' },
    mayFollow: (from, to) => from.hostname === to.hostname,
  });
  if (!fetched.ok)
    return { ok: false, reason: publicCrawlError(fetched.error.kind, fetched.error.status ?? null).message };
  const { response } = fetched;
  if (response.status >= 300 && response.status < 400) {
    discardBody(response);
    const to = new URL(response.headers.get('location') ?? '', fetched.url);
    return {
      ok: false,
      reason: `the file redirected to another host (${to.hostname}); it must be served by ${fetched.url.hostname} itself`,
    };
  }
  if (!response.ok) {
    discardBody(response);
    return {
      ok: false,
      reason: response.status === 404 ? 'file not found (HTTP 404)' : `the server answered HTTP ${response.status}`,
    };
  }
  const body = await readBoundedBody(response, HTTP_PROOF_MAX_BYTES, signal);
  if (!body.ok) {
    return {
      ok: false,
      reason:
        body.error.kind === 'too_large'
          ? `the file is larger than ${HTTP_PROOF_MAX_BYTES} bytes`
          : publicCrawlError(body.error.kind, null).message,
    };
  }
  const text = new TextDecoder().decode(body.bytes).trim();
  const value = text.startsWith(DNS_RECORD_PREFIX) ? text.slice(DNS_RECORD_PREFIX.length).trim() : text;
  if (value === subject.token) return { ok: true };
  const otherDomain = subject.otherTokens.get(value);
  if (otherDomain)
    return {
      ok: false,
      reason: `wrong value: the file holds your token for ${otherDomain}, not the one for ${subject.domain}`,
    };
  return { ok: false, reason: `wrong value: the file does not hold this domain's token (${subject.token})` };
}
