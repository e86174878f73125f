import type { Context } from 'hono';
import { clientGroup } from '../../src/rate-limits/client-group';
import type { AppEnv } from '../types';

/**
 * The client for every per-IP limit: an IPv4 address, or an IPv6 address's /64 network (src/rate-limits/client-group.ts;
 * one host holds a whole /64, so per-address IPv6 limits would be no limits). Node: the socket address, passed by
 * functions/node.ts as `env.clientIp` (a client-sent header is never trusted there). Workers: cf-connecting-ip,
 * which Cloudflare sets and a client cannot forge.
 */
export function clientIp(c: Context<AppEnv>): string {
  const fromRuntime = (c.env as { clientIp?: string } | undefined)?.clientIp;
  return clientGroup(fromRuntime ?? c.req.header('cf-connecting-ip') ?? 'unknown');
}
