// What one re-check found, reduced to the health vocabulary (src/catalog/health-states.ts): the mapping from what the
// site did (src/crawler/check-page.ts) to a state and a reason. Pure.
import type { HealthReasonKind } from '../catalog/health-states';
import type { PageCheck } from '../crawler/check-page';
import type { CrawlFailure } from '../crawler/crawl-result';

/** What the page showed, kept to compare with the listing ("refresh from the site"). */
export interface SeenPage {
  title: string | null;
  description: string | null;
  image: string | null;
}

export type CheckOutcome =
  | { state: 'ok'; etag: string | null; lastModified: string | null; seen: SeenPage | null }
  | { state: 'failing'; reason: HealthReasonKind; httpStatus: number | null; detail: string }
  | { state: 'moved'; movedTo: string; detail: string }
  | { state: 'unchecked'; reason: 'robots_disallowed' | 'rate_limited'; detail: string };

const TLS_WORDS = /certificate|\bssl\b|\btls\b|self[- ]signed|CERT_/i;

/** A failed fetch in health words: DNS gone, no answer, a TLS error, a redirect loop, a refused address. */
export function failureOutcome(error: CrawlFailure): CheckOutcome {
  const fail = (reason: HealthReasonKind, httpStatus: number | null = null): CheckOutcome => ({
    state: 'failing',
    reason,
    httpStatus,
    detail: error.detail,
  });
  switch (error.kind) {
    case 'dns_error':
      return fail('dns_gone');
    case 'too_many_redirects':
      return fail('redirect_loop');
    case 'blocked_address':
    case 'blocked_port':
    case 'bad_url':
      return fail('blocked_address');
    case 'http_error':
      return fail('http_error', error.status ?? null);
    default:
      return fail(TLS_WORDS.test(error.detail) ? 'tls_error' : 'no_answer');
  }
}

/** An answer in health words: 2xx and 304 pass, 429 is "come back later", 404/410 not found, 5xx and other 4xx fail. */
export function answerOutcome(check: Extract<PageCheck, { kind: 'answered' }>): CheckOutcome {
  const { status } = check;
  const detail = `${check.finalUrl} answered HTTP ${status}`;
  if ((status >= 200 && status < 300) || status === 304) {
    const seen = check.metadata
      ? { title: check.metadata.title, description: check.metadata.description, image: check.metadata.imageUrl }
      : null;
    return { state: 'ok', etag: check.etag, lastModified: check.lastModified, seen };
  }
  if (status === 429) return { state: 'unchecked', reason: 'rate_limited', detail };
  if (status === 404 || status === 410) return { state: 'failing', reason: 'not_found', httpStatus: status, detail };
  if (status >= 500) return { state: 'failing', reason: 'http_5xx', httpStatus: status, detail };
  return { state: 'failing', reason: 'http_error', httpStatus: status, detail };
}
