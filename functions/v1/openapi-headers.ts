// The rate-limit headers as openapi.json declares them, added to the generated document in one pass, from the
// same rule the middleware follows (functions/middleware/rate-limit.ts, functions/errors.ts): an operation that can
// answer 429 is limited, so its answers carry RateLimit-*; a 429 and a 503 also carry Retry-After, and so does the
// 409 idempotency_in_progress of an operation that takes an Idempotency-Key (functions/v1/idempotency.ts).

type Header = { description: string; required?: boolean; schema: { type: 'integer'; minimum: number } };
type Response = { headers?: Record<string, Header | { $ref: string }> };
type Operation = { responses?: Record<string, Response>; parameters?: Array<{ name?: string; in?: string }> };
type Document = {
  paths?: Record<string, Record<string, Operation>>;
  components?: { headers?: Record<string, Header> };
};

const seconds = { type: 'integer', minimum: 0 } as const;
export const LIMIT_HEADERS: Record<string, Header> = {
  'RateLimit-Limit': {
    description: 'Requests the bucket allows per window (src/rate-limits/policies.ts)',
    schema: seconds,
  },
  'RateLimit-Remaining': { description: 'Requests left in the window after this one', schema: seconds },
  'RateLimit-Reset': {
    description: 'Seconds until the bucket has room again; 0 when it has room now',
    schema: seconds,
  },
  'Retry-After': { description: 'Seconds to wait before sending the request again', schema: seconds },
};

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** Answered before the limiter runs: a missing or invalid key (401), an oversized or non-JSON body (413, 415). */
const BEFORE_THE_LIMITER = new Set(['401', '413', '415']);

/** Adds the header components and their references; returns the same document. */
export function declareLimitHeaders<T extends object>(document: T): T {
  const doc = document as Document;
  doc.components = { ...doc.components, headers: { ...doc.components?.headers, ...LIMIT_HEADERS } };
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const responses = operation.responses ?? {};
      const limited = '429' in responses;
      const idempotent = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      for (const [status, response] of Object.entries(responses)) {
        const headers: Response['headers'] = {};
        if (limited && !BEFORE_THE_LIMITER.has(status)) {
          for (const name of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']) headers[name] = ref(name);
        }
        if (status === '429' || status === '503' || (idempotent && status === '409'))
          headers['Retry-After'] = ref('Retry-After');
        if (Object.keys(headers).length) response.headers = { ...response.headers, ...headers };
      }
    }
  }
  return document;
}
