// Recording a probe of a listing's MCP server (docs/mcp-servers.md "What is recorded"): site_mcp holds what the
// last probe found; site_mcp_changes the short changelog of the tool list.
import { sql } from 'drizzle-orm';
import { queryRows } from '../db/client';
import type { Deps } from '../deps';
import { MCP_CHANGELOG_LENGTH } from '../catalog/mcp-states';
import type { McpProbedTool, McpProbeResult } from '../crawler/mcp-probe';
import { diffTools, isNoChange, type ToolChange } from './tool-changes';

interface PreviousRow {
  url: string;
  status: string;
  server_name: string | null;
  server_title: string | null;
  server_version: string | null;
  tools: McpProbedTool[] | string;
  tools_seen_at: Date | string | null;
  changed_at: Date | string;
}

export interface Recorded {
  /** False when the site's mcp_url is no longer the URL probed (changed or cleared meanwhile): nothing written. */
  recorded: boolean;
  /** The changelog entry written, if the tool list changed. */
  change: ToolChange | null;
}

/**
 * Writes what a probe of `url` found for the site, only while the site's mcp_url is still `url`. `changed_at` moves
 * only when the status, the server's name/title/version or the tools changed; a probe that listed no tools keeps the
 * last listed ones (and when they were seen). A list that differs from the last listed one adds a changelog entry;
 * the changelog keeps MCP_CHANGELOG_LENGTH entries. A probe of a new URL starts afresh (the old changelog goes).
 */
export async function recordMcpProbe(
  deps: Deps,
  siteId: string,
  url: string,
  result: McpProbeResult,
): Promise<Recorded> {
  const [previous] = await queryRows<PreviousRow>(
    deps.db,
    sql`SELECT url, status, server_name, server_title, server_version, tools, tools_seen_at, changed_at
        FROM site_mcp WHERE site_id = ${siteId}::uuid`,
  );
  const same = previous?.url === url ? previous : undefined;
  const lastTools: McpProbedTool[] = same
    ? typeof same.tools === 'string'
      ? (JSON.parse(same.tools) as McpProbedTool[])
      : same.tools
    : [];
  const listed = result.tools !== null;
  const tools = result.tools ?? lastTools;
  const change = listed && same?.tools_seen_at ? diffTools(lastTools, tools) : null;
  const toolsChanged = change ? !isNoChange(change) : listed && !same?.tools_seen_at && tools.length > 0;
  const changed =
    !same ||
    same.status !== result.status ||
    same.server_name !== result.server.name ||
    same.server_title !== result.server.title ||
    same.server_version !== result.server.version ||
    toolsChanged;
  const now = deps.now();
  const changedAt = changed || !same ? now : new Date(same.changed_at);
  const toolsSeenAt = listed ? now : same?.tools_seen_at ? new Date(same.tools_seen_at) : null;

  const [written] = await queryRows<{ site_id: string }>(
    deps.db,
    sql`INSERT INTO site_mcp AS m (site_id, url, status, reason_kind, http_status, transport, protocol_version,
          server_name, server_title, server_version, auth_issuer, tools, tool_count, checked_at, tools_seen_at, changed_at)
        SELECT s.id, ${url}::text, ${result.status}::text, ${result.reasonKind}::text, ${result.httpStatus}::integer,
          ${result.transport}::text, ${result.protocolVersion}::text, ${result.server.name}::text,
          ${result.server.title}::text, ${result.server.version}::text, ${result.authIssuer}::text,
          ${JSON.stringify(tools)}::jsonb, ${tools.length}::integer, ${now.toISOString()}::timestamptz,
          ${toolsSeenAt?.toISOString() ?? null}::timestamptz, ${changedAt.toISOString()}::timestamptz
        FROM sites s WHERE s.id = ${siteId}::uuid AND s.mcp_url = ${url}::text
        ON CONFLICT (site_id) DO UPDATE SET url = EXCLUDED.url, status = EXCLUDED.status,
          reason_kind = EXCLUDED.reason_kind, http_status = EXCLUDED.http_status, transport = EXCLUDED.transport,
          protocol_version = EXCLUDED.protocol_version, server_name = EXCLUDED.server_name,
          server_title = EXCLUDED.server_title, server_version = EXCLUDED.server_version,
          auth_issuer = EXCLUDED.auth_issuer, tools = EXCLUDED.tools, tool_count = EXCLUDED.tool_count,
          checked_at = EXCLUDED.checked_at, tools_seen_at = EXCLUDED.tools_seen_at, changed_at = EXCLUDED.changed_at
        RETURNING site_id`,
  );
  if (!written) return { recorded: false, change: null };
  if (previous && !same) await deps.db.execute(sql`DELETE FROM site_mcp_changes WHERE site_id = ${siteId}::uuid`);
  if (!change || isNoChange(change)) return { recorded: true, change: null };
  await deps.db.execute(
    sql`INSERT INTO site_mcp_changes (site_id, changed_at, added, removed, changed)
        VALUES (${siteId}::uuid, ${now.toISOString()}::timestamptz, ${pgArray(change.added)}::text[],
          ${pgArray(change.removed)}::text[], ${pgArray(change.changed)}::text[])`,
  );
  await deps.db.execute(
    sql`DELETE FROM site_mcp_changes WHERE site_id = ${siteId}::uuid AND id NOT IN (
          SELECT id FROM site_mcp_changes WHERE site_id = ${siteId}::uuid
          ORDER BY changed_at DESC, id DESC LIMIT ${MCP_CHANGELOG_LENGTH})`,
  );
  return { recorded: true, change };
}

/** A text[] literal: every element quoted and escaped, so names with commas, quotes or braces stay one element. */
function pgArray(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/** An mcp_url cleared: what was found of the old server goes with it (the changes too). */
export async function forgetMcpServer(deps: Deps, siteId: string): Promise<void> {
  await deps.db.execute(sql`DELETE FROM site_mcp_changes WHERE site_id = ${siteId}::uuid`);
  await deps.db.execute(sql`DELETE FROM site_mcp WHERE site_id = ${siteId}::uuid`);
}
