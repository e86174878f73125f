// CORS for the endpoints a browser-based MCP client calls directly: /mcp, /api/mcp/mcp, the two discovery
// documents, /oauth/register, /oauth/token and /oauth/revoke (docs/mcp-and-search.md "Browser-based clients").
import { cors } from 'hono/cors';

/**
 * Any origin may call and read these endpoints, never with credentials: none of them reads a cookie (they take a
 * bearer token, a client_id or nothing), so a foreign page gains nothing it could not do from a server. Their
 * DNS-rebinding defence is the Host check (our-host.ts), not the Origin. A page must be able to read the 401's
 * WWW-Authenticate (how it finds the authorization server) and the transport's Mcp-Session-Id.
 */
export const openCors = cors({
  origin: '*',
  credentials: false,
  allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
  allowHeaders: ['Authorization', 'Content-Type', 'Mcp-Session-Id', 'MCP-Protocol-Version', 'Last-Event-ID'],
  exposeHeaders: ['WWW-Authenticate', 'Mcp-Session-Id'],
  maxAge: 86400,
});
