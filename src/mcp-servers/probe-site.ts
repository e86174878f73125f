// Probing one listing's MCP server and recording what was found (docs/mcp-servers.md): at crawl time, on each
// re-check of a live tool and when the owner changes the URL. A listing without an mcp_url has nothing probed.
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { probeMcpServer, type McpProbeResult } from '../crawler/mcp-probe';
import { forgetMcpServer, recordMcpProbe } from './record-probe';

/**
 * Probes the site's current mcp_url and records the result; null when the site has none (and any old finding is
 * forgotten). Throws only for faults of ours (the database); probeSiteMcpQuietly is for callers that must go on.
 */
export async function probeSiteMcp(deps: Deps, siteId: string): Promise<McpProbeResult | null> {
  const [site] = await queryRows<{ mcp_url: string | null }>(
    deps.db,
    sql`SELECT mcp_url FROM sites WHERE id = ${siteId}::uuid`,
  );
  if (!site) return null;
  if (!site.mcp_url) {
    await forgetMcpServer(deps, siteId);
    return null;
  }
  const result = await probeMcpServer(site.mcp_url, {
    fetch: deps.crawl.fetch,
    resolver: deps.crawl.resolver,
    allowPrivate: deps.config.crawl.allowPrivate,
    ...(deps.crawl.timeoutMs !== undefined && { timeoutMs: deps.crawl.timeoutMs }),
  });
  await recordMcpProbe(deps, siteId, site.mcp_url, result);
  if (result.status !== 'reachable')
    deps.log.info('mcp probe', {
      site_id: siteId,
      status: result.status,
      reason: result.reasonKind,
      detail: result.detail,
    });
  return result;
}

/** The probe where an MCP fault must never fail the work around it (the crawl, a re-check): logged, not thrown. */
export async function probeSiteMcpQuietly(deps: Deps, siteId: string): Promise<void> {
  try {
    await probeSiteMcp(deps, siteId);
  } catch (error) {
    deps.log.error('mcp probe failed on our side', { site_id: siteId, err: String(error) });
  }
}
