// Open-source Redis 7 rejects `#!lua flags=allow-key-locking` (an Upstash-only flag) used by @upstash/ratelimit.
import { createHash } from 'node:crypto';

/** sha1 hex as Redis computes script hashes. */
export function scriptSha(script: string): string {
  return createHash('sha1').update(script).digest('hex');
}

/**
 * Rewrites scripts so Redis accepts them, remembering sha1(original) → sha1(patched) so that the client's
 * EVALSHA with the ORIGINAL hash (precomputed in the SDK) reaches the patched script.
 */
export class ScriptPatcher {
  private readonly shaMap = new Map<string, string>();

  /** Drops a leading shebang line; returns the script unchanged when it has none. */
  patch(script: string): string {
    if (!script.startsWith('#!')) return script;
    const patched = script.slice(script.indexOf('\n') + 1);
    this.shaMap.set(scriptSha(script), scriptSha(patched));
    return patched;
  }

  /** The hash Redis knows for a client-side hash (unknown hashes pass through and get NOSCRIPT). */
  redisSha(clientSha: string): string {
    return this.shaMap.get(clientSha.toLowerCase()) ?? clientSha;
  }
}
