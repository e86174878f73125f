// A server that answers 401: MCP's authorization (RFC 9728) names its protected-resource metadata in the
// WWW-Authenticate header; the metadata names the authorization servers. The probe records only the first one's
// issuer, read through the same safe fetch and bounds; it never starts an authorization.
import { BoundedReader } from './mcp-answers';
import { cutText } from './mcp-tools';
import type { McpAuthRequired, WireOptions } from './mcp-transports';
import { discardBody, fetchFollowingCheckedRedirects } from './safe-fetch';

/** The `resource_metadata` parameter of a Bearer challenge (quoted or not); undefined when absent. */
export function resourceMetadataUrl(wwwAuthenticate: string | null): string | undefined {
  if (!wwwAuthenticate) return undefined;
  const match = /(?:^|[\s,])resource_metadata\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i.exec(wwwAuthenticate);
  const value = match?.[1] ?? match?.[2];
  return value ? value.replace(/\\(.)/g, '$1') : undefined;
}

/** The issuer of the first authorization server the metadata names, or null when there is none to be had. */
export async function authIssuerOf(auth: McpAuthRequired, wire: WireOptions): Promise<string | null> {
  const named = resourceMetadataUrl(auth.wwwAuthenticate);
  if (!named || wire.signal.aborted) return null;
  let metadataUrl: URL;
  try {
    metadataUrl = new URL(named, auth.url);
  } catch {
    return null;
  }
  const fetched = await fetchFollowingCheckedRedirects(metadataUrl.href, {
    fetch: wire.fetch,
    resolver: wire.resolver,
    allowPrivate: wire.allowPrivate,
    maxRedirects: wire.maxRedirects,
    signal: wire.signal,
    headers: { 'user-agent': wire.userAgent, accept: 'application/json' },
  });
  if (!fetched.ok) return null;
  if (!fetched.response.ok) {
    discardBody(fetched.response);
    return null;
  }
  const body = new BoundedReader(fetched.response, wire.budget, wire.signal);
  try {
    const metadata = JSON.parse(await body.text()) as { authorization_servers?: unknown };
    const first = Array.isArray(metadata.authorization_servers) ? metadata.authorization_servers[0] : undefined;
    const issuer = cutText(first, 500);
    if (!issuer) return null;
    const parsed = new URL(issuer);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null; // a body past the bounds, not JSON, or no URL: the server still wants credentials
  } finally {
    body.cancel();
  }
}
