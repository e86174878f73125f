import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client';
import type { McpToolRecord } from '../../src/db/schema/mcp';

// Listings with an MCP server as the probe (built elsewhere) leaves them: sites.mcp_url set and a site_mcp row, written
// directly, so the read side (tool record, page, search filter, registry API) is tested on its own.

export interface ProbeSeed {
  status?: 'unchecked' | 'reachable' | 'unreachable' | 'auth_required';
  transport?: 'streamable_http' | 'sse' | null;
  tools?: Array<Pick<McpToolRecord, 'name'> & Partial<McpToolRecord>>;
  serverVersion?: string | null;
  /** The URL the probe ran against (default: the listing's mcp_url). */
  url?: string;
  changedAt?: Date;
  at?: Date;
}

/** Names `url` as the listing's MCP server and, unless `probe` is null, records what a probe found. */
export async function giveMcpServer(db: Db, siteId: string, url: string, probe: ProbeSeed | null = {}): Promise<void> {
  await queryRows(db, sql`UPDATE sites SET mcp_url = ${url} WHERE id = ${siteId}::uuid`);
  if (!probe) return;
  const tools = (probe.tools ?? []).map((t) => ({
    name: t.name,
    title: t.title ?? null,
    description: t.description ?? null,
    input_schema_bytes: t.input_schema_bytes ?? 42,
  }));
  const status = probe.status ?? 'reachable';
  const at = (probe.at ?? new Date()).toISOString();
  await queryRows(
    db,
    sql`INSERT INTO site_mcp (site_id, url, status, reason_kind, transport, server_name, server_version, tools, tool_count,
        checked_at, tools_seen_at, changed_at)
      VALUES (${siteId}::uuid, ${probe.url ?? url}, ${status}, ${status === 'reachable' ? null : status === 'auth_required' ? 'auth_required' : 'timeout'},
        ${probe.transport === undefined ? 'streamable_http' : probe.transport}, 'probe-test', ${probe.serverVersion ?? null},
        ${JSON.stringify(tools)}::jsonb, ${tools.length}, ${at}::timestamptz, ${status === 'reachable' ? at : null}::timestamptz,
        ${(probe.changedAt ?? new Date()).toISOString()}::timestamptz)
      ON CONFLICT (site_id) DO UPDATE SET url = excluded.url, status = excluded.status, transport = excluded.transport,
        server_version = excluded.server_version, tools = excluded.tools, tool_count = excluded.tool_count,
        checked_at = excluded.checked_at, tools_seen_at = excluded.tools_seen_at, changed_at = excluded.changed_at`,
  );
}
