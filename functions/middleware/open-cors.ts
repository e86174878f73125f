// CORS for the endpoints a browser-based MCP client calls directly: /mcp, /api/mcp/mcp, the two discovery
// documents, /oauth/register, /oauth/token and /oauth/revoke (docs/mcp-and-search.md "Browser-based clients").
// Fifteen lines rather than hono/cors: the same answers for one fixed policy, and 0.5 KiB less in the Worker bundle.
import type { MiddlewareHandler } from 'hono';

/**
 * Any origin may call and read these endpoints, never with credentials: none of them reads a cookie (they take a
 * bearer token, a client_id or nothing), so a foreign page gains nothing it could not do from a server. Their
 * DNS-rebinding defence is the Host check (our-host.ts), not the Origin. A page must be able to read the 401's
 * WWW-Authenticate (how it finds the authorization server) and the transport's Mcp-Session-Id.
 */
const ANSWER = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'WWW-Authenticate, Mcp-Session-Id',
};
const PREFLIGHT = {
  ...ANSWER,
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID',
  'Access-Control-Max-Age': '86400',
};

export const openCors: MiddlewareHandler = async (c, next) => {
  if (c.req.method === 'OPTIONS') return c.body(null, 204, PREFLIGHT);
  await next();
  // After the handler: the MCP endpoints answer with raw Responses, which headers set beforehand would miss.
  for (const [name, value] of Object.entries(ANSWER)) c.header(name, value);
};
