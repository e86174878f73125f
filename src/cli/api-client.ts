// A tiny typed client for the tooldir REST API (base `${baseUrl}/api/v1`, bearer key).
import { CliError, type ErrorBody } from './cli-error';
import { exitCodeForHttpStatus } from './exit-codes';
import type {
  CategoryList,
  EditRequest,
  ListEnvelope,
  PendingPaymentRecord,
  QueuedResponse,
  SiteDetail,
  SubmitRequest,
} from './api-types';
import type { SiteStats } from '../stats/stats-schemas';

export type FetchFunction = (input: string, init?: RequestInit) => Promise<Response>;

/** An answer the CLI treats as an outcome rather than a failure. */
export type SubmitOutcome =
  | { kind: 'queued'; body: QueuedResponse }
  | { kind: 'payment_required'; body: PendingPaymentRecord };

export interface ApiClientOptions {
  baseUrl: string;
  /** Left out for the public reads (categories): then no Authorization header is sent at all. */
  apiKey?: string;
  fetch: FetchFunction;
  /** Per-request time limit; a hung server must not hang the terminal. */
  timeoutMs?: number;
}

/** Typed calls to the REST API; every non-success answer becomes a CliError with the API's message. */
export class ApiClient {
  private readonly apiBase: string;

  constructor(private readonly options: ApiClientOptions) {
    this.apiBase = `${options.baseUrl}/api/v1`;
  }

  /** `idempotencyKey` makes a retry of this very request safe (docs/idempotency.md): see submit-retry.ts. */
  async submitSite(request: SubmitRequest, idempotencyKey?: string): Promise<SubmitOutcome> {
    const extra: Record<string, string> = idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey };
    const response = await this.send('POST', '/submit-site', request, extra);
    if (response.status === 201) return { kind: 'queued', body: await readJson<QueuedResponse>(response) };
    if (response.status === 402)
      return { kind: 'payment_required', body: await readJson<PendingPaymentRecord>(response) };
    throw await toCliError(response);
  }

  async getSite(siteId: string): Promise<SiteDetail> {
    const response = await this.send('GET', `/sites/${encodeURIComponent(siteId)}`);
    if (response.ok) return readJson<SiteDetail>(response);
    throw await toCliError(response);
  }

  /** GET /sites/{id}/stats: a tool's statistics per UTC day (docs/stats.md). */
  async getSiteStats(siteId: string, range: { from?: string; to?: string }): Promise<SiteStats> {
    const params = new URLSearchParams(Object.entries(range).filter((e): e is [string, string] => e[1] !== undefined));
    const response = await this.send(
      'GET',
      `/sites/${encodeURIComponent(siteId)}/stats${params.size ? `?${params.toString()}` : ''}`,
    );
    if (response.ok) return readJson<SiteStats>(response);
    throw await toCliError(response);
  }

  /** POST /sites/{id}/retry: a crawl_failed submission back to queued (202 with the site record). */
  async retrySite(siteId: string): Promise<SiteDetail> {
    const response = await this.send('POST', `/sites/${encodeURIComponent(siteId)}/retry`);
    if (response.status === 202) return readJson<SiteDetail>(response);
    throw await toCliError(response);
  }

  /** PATCH /sites/{id}: a new name and/or description for a live tool, waiting for an editor (202 with the record). */
  async editSite(siteId: string, edit: EditRequest): Promise<SiteDetail> {
    const response = await this.send('PATCH', `/sites/${encodeURIComponent(siteId)}`, edit);
    if (response.status === 202) return readJson<SiteDetail>(response);
    throw await toCliError(response);
  }

  /** GET /categories: public, no key. */
  async listCategories(): Promise<CategoryList> {
    const response = await this.send('GET', '/categories');
    if (response.ok) return readJson<CategoryList>(response);
    throw await toCliError(response);
  }

  async listSites(query: { limit?: number; offset?: number; url?: string }): Promise<ListEnvelope> {
    const params = new URLSearchParams();
    if (query.limit !== undefined) params.set('limit', String(query.limit));
    if (query.offset !== undefined) params.set('offset', String(query.offset));
    if (query.url !== undefined) params.set('url', query.url);
    const search = params.size ? `?${params.toString()}` : '';
    const response = await this.send('GET', `/sites${search}`);
    if (response.ok) return readJson<ListEnvelope>(response);
    throw await toCliError(response);
  }

  /**
   * Only a read follows redirects (and fetch drops the Authorization header when one leaves the origin). Anything
   * else changes something: fetch would send a 307/308 on with its body, and on the same origin with the key, to
   * wherever the Location points, or turn a 301/302/303 into a GET of it. So a redirect answering a change is
   * reported, not followed: the service never redirects its own API, so it means a wrong --base-url or a middlebox.
   */
  private async send(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const redirect: RequestRedirect = method === 'GET' ? 'follow' : 'manual';
    let response: Response;
    try {
      response = await this.options.fetch(`${this.apiBase}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000),
      });
    } catch (error) {
      throw networkError(this.options.baseUrl, error);
    }
    if (redirect === 'manual' && response.status >= 300 && response.status < 400)
      throw redirectNotFollowed(this.options.baseUrl, method, response);
    return response;
  }
}

/** Turns an error answer into a CliError carrying the API's own message and code. */
async function toCliError(response: Response): Promise<CliError> {
  const body = await readErrorBody(response);
  const exitCode = exitCodeForHttpStatus(response.status, body?.error.code);
  if (!body) {
    return new CliError('unexpected_response', `The API answered HTTP ${response.status} without an error message`, {
      exitCode,
      httpStatus: response.status,
    });
  }
  const { code, site_id: siteId } = body.error;
  let { message } = body.error;
  const extra: string[] = [];
  if (response.status === 401) extra.push('Check the key, or run `tooldir login` again.');
  // A 429 is one line: the API's message says when to retry; only one that does not gets Retry-After added to it.
  const retryAfter = response.headers.get('retry-after');
  if (response.status === 429 && retryAfter && !/\bretry\b|\bagain\b/i.test(message))
    message = `${message.replace(/\.?$/, '.')} Retry in ${retryAfter} s.`;
  if (siteId) extra.push(`Existing submission: ${siteId}`);
  return new CliError(code, message, { exitCode, extraLines: extra, siteId, httpStatus: response.status });
}

async function readErrorBody(response: Response): Promise<ErrorBody | undefined> {
  try {
    const value: unknown = await response.json();
    if (typeof value !== 'object' || value === null || !('error' in value)) return undefined;
    const error = (value as { error: unknown }).error;
    if (typeof error !== 'object' || error === null) return undefined;
    const { code, message, site_id: siteId } = error as Record<string, unknown>;
    if (typeof message !== 'string') return undefined;
    const result: ErrorBody = { error: { code: typeof code === 'string' ? code : 'error', message } };
    if (typeof siteId === 'string') result.error.site_id = siteId;
    return result;
  } catch {
    return undefined;
  }
}

async function readJson<T>(response: Response): Promise<T> {
  try {
    // The API is the contract's other side; its bodies are trusted to match the declared types.
    return (await response.json()) as T;
  } catch {
    throw new CliError('unexpected_response', `The API answered HTTP ${response.status} with a body that is not JSON`, {
      httpStatus: response.status,
    });
  }
}

/** A redirect answering a change: named by status and target origin only (the Location is the server's text). */
function redirectNotFollowed(baseUrl: string, method: string, response: Response): CliError {
  response.body?.cancel().catch(() => undefined);
  let target = 'another address';
  try {
    const origin = new URL(response.headers.get('location') ?? '', baseUrl).origin;
    if (origin !== 'null') target = origin;
  } catch {
    // an unparsable Location stays "another address"
  }
  return new CliError(
    'unexpected_redirect',
    `The API at ${baseUrl} answered ${method} with HTTP ${response.status}, a redirect to ${target}; tooldir does not send a change on to another address, so nothing was sent there.`,
    {
      httpStatus: response.status,
      extraLines: ["Check the address (--base-url or TOOLDIR_BASE_URL): it must be the service's own origin."],
    },
  );
}

/** A friendly line for a server that cannot be reached (connection refused, DNS, timeout). */
function networkError(baseUrl: string, error: unknown): CliError {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause instanceof Error && 'code' in cause && typeof cause.code === 'string' ? cause.code : undefined;
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  const detail = code ?? (cause instanceof Error ? cause.message : undefined) ?? 'network error';
  const why = timedOut ? 'no answer in time' : code === 'ECONNREFUSED' ? 'connection refused' : detail;
  return new CliError('network_error', `Could not reach the tooldir API at ${baseUrl} (${why}).`, {
    extraLines: ['Check the address (--base-url or TOOLDIR_BASE_URL) and your connection.'],
  });
}
