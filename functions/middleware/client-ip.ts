import type { Context } from 'hono';
import type { AppEnv } from '../types';

/**
 * The client address for per-IP limits. Workers: cf-connecting-ip (set by Cloudflare, not spoofable there).
 * Node: the socket address, stored by the Node entry in the `tooldir.client-ip` env slot.
 */
export function clientIp(c: Context<AppEnv>): string {
  const fromRuntime = (c.env as { clientIp?: string } | undefined)?.clientIp;
  return c.req.header('cf-connecting-ip') ?? fromRuntime ?? 'unknown';
}
