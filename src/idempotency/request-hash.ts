import { sha256Hex } from '../crypto';

/** JSON with object keys sorted, so two spellings of one body (key order) hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What "the same request" means for a key: the operation and its VALIDATED input (after trimming), so REST and
 * MCP agree and whitespace around a name does not count as another body. Leaving `plan` out is not the same as
 * `{"plan":"basic"}`: on a re-submit of an unpaid URL it keeps that record's plan. Any other difference is
 * another request (422 idempotency_key_reused).
 */
export function requestHash(operation: string, input: unknown): Promise<string> {
  return sha256Hex(canonicalJson({ operation, input }));
}
