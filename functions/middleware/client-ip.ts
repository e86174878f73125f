import type { Context } from 'hono';
import type { AppEnv } from '../types';

/**
 * The client address for per-IP limits. Node: the socket address, passed by functions/node.ts as
 * `env.clientIp` (a client-sent header is never trusted there). Workers: cf-connecting-ip, which
 * Cloudflare sets and a client cannot forge.
 */
export function clientIp(c: Context<AppEnv>): string {
  const fromRuntime = (c.env as { clientIp?: string } | undefined)?.clientIp;
  return fromRuntime ?? c.req.header('cf-connecting-ip') ?? 'unknown';
}
