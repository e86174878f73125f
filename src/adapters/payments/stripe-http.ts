// A minimal Stripe REST client over fetch for the few calls the payments adapter makes. It replaces the
// stripe-node SDK in the Worker bundle (~94 KiB gzipped of resource classes) while keeping its wire
// behaviour: form encoding with bracketed keys, pinned API version, Idempotency-Key, per-attempt timeout,
// and the SDK's retry rule (network errors, 409 and 5xx, unless Stripe-Should-Retry says otherwise).

/** The API version stripe-node 23.1 pins (node_modules/stripe/esm/apiVersion.js). */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/** A non-2xx answer from Stripe; `statusCode` like the SDK's errors. The message never contains the key. */
export class StripeApiError extends Error {
  override name = 'StripeApiError';
  constructor(
    message: string,
    readonly statusCode: number | undefined,
    readonly type?: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export type FormValue = string | number | boolean | null | undefined | FormValue[] | { [key: string]: FormValue };

/** Stripe's form encoding: `a[b][0][c]=v`, undefined skipped, null as an empty string (clears a field). */
export function formEncode(data: Record<string, FormValue>): string {
  const pairs: string[] = [];
  const add = (key: string, value: FormValue) => {
    if (value === undefined) return;
    if (value === null || typeof value !== 'object') {
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(value === null ? '' : String(value))}`);
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => add(`${key}[${i}]`, item));
    } else {
      for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    }
  };
  for (const [k, v] of Object.entries(data)) add(k, v);
  return pairs.join('&');
}

export interface StripeHttpOptions {
  secretKey: string;
  /** STRIPE_API_URL (stand-ins, stripe-mock); https://api.stripe.com when unset. */
  apiUrl?: string;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: typeof fetch;
}

export interface StripeHttp {
  post<T>(path: string, params: Record<string, FormValue>, options?: { idempotencyKey?: string }): Promise<T>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Builds the client; nothing is sent until the first call. */
export function createStripeHttp(options: StripeHttpOptions): StripeHttp {
  const base = (options.apiUrl ?? 'https://api.stripe.com').replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 8000;
  const maxRetries = options.maxRetries ?? 1;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function attempt(path: string, body: string, idempotencyKey: string): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    try {
      return await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
          'stripe-version': STRIPE_API_VERSION,
          'idempotency-key': idempotencyKey,
          'user-agent': 'tooldir (fetch)',
        },
        body,
        signal: controller.signal,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async post<T>(path: string, params: Record<string, FormValue>, opts: { idempotencyKey?: string } = {}): Promise<T> {
      // Like stripe-node: a retried POST always carries an idempotency key, so a retry cannot act twice.
      const idempotencyKey = opts.idempotencyKey ?? `tooldir-retry-${crypto.randomUUID()}`;
      const body = formEncode(params);
      for (let retries = 0; ; retries++) {
        let res: Response;
        try {
          res = await attempt(path, body, idempotencyKey);
        } catch (error) {
          if (retries < maxRetries) {
            await sleep(500 * 2 ** retries);
            continue;
          }
          const timedOut = (error as { name?: string }).name === 'AbortError';
          throw new StripeApiError(timedOut ? `Stripe did not answer within ${timeoutMs} ms` : 'Stripe could not be reached', undefined);
        }
        if (res.ok) return (await res.json()) as T;
        const shouldRetry = res.headers.get('stripe-should-retry');
        const retryable = shouldRetry === 'true' || (shouldRetry !== 'false' && (res.status === 409 || res.status >= 500));
        if (retryable && retries < maxRetries) {
          await res.body?.cancel();
          await sleep(500 * 2 ** retries);
          continue;
        }
        const payload = (await res.json().catch(() => ({}))) as { error?: { message?: string; type?: string; code?: string } };
        throw new StripeApiError(payload.error?.message ?? `Stripe answered ${res.status}`, res.status, payload.error?.type, payload.error?.code);
      }
    },
  };
}
