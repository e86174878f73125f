// Our OAuth names and addresses. Every one derives from deps.origin (src/origin.ts: SITE_ORIGIN, or the bound
// address locally), never from a Host header, so a rebinding name can never become our issuer or audience.

/** Path of the OAuth-protected MCP endpoint; its absolute URL is the resource (RFC 8707 audience) of every token. */
export const MCP_RESOURCE_PATH = '/mcp';
/** RFC 9728 §3.1: the well-known path with the resource's path appended. */
export const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_RESOURCE_PATH}`;
export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';

export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

/** The /mcp URL: the only resource (audience) this authorization server issues tokens for. */
export const mcpResource = (origin: string) => `${origin}${MCP_RESOURCE_PATH}`;
/** The issuer is the origin itself (no path), so its RFC 8414 metadata lives at the root well-known URL. */
export const issuer = (origin: string) => origin;
export const resourceMetadataUrl = (origin: string) => `${origin}${RESOURCE_METADATA_PATH}`;

/**
 * Whether a `resource` parameter (RFC 8707) names our /mcp URL. Compared as a URL parser reads it, so an
 * upper-case scheme or host and a default port are accepted (the MCP spec asks servers to accept them); a
 * fragment, another path or another origin is not.
 */
export function isOurResource(value: string, origin: string): boolean {
  if (value.includes('#')) return false;
  try {
    return new URL(value).href === new URL(mcpResource(origin)).href;
  } catch {
    return false;
  }
}
