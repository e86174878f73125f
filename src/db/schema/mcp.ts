import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { mcpReasonKinds, mcpStatuses, mcpTransports } from '../../catalog/mcp-states';
import { tstz } from './columns';
import { sites } from './sites';

// A listing's MCP server (docs/mcp-servers.md): what the last probe of sites.mcp_url found, and the short changelog
// of its tool list. The probe runs at crawl time and on each re-check.

/** One tool as the server listed it; the input schema is kept only as its size. */
export type McpToolRecord = {
  name: string;
  title: string | null;
  description: string | null;
  input_schema_bytes: number;
};

/** What the last probe of a site's `mcp_url` found; one row per site that has an MCP URL and was probed. */
export const siteMcp = pgTable(
  'site_mcp',
  {
    siteId: uuid('site_id')
      .primaryKey()
      .references(() => sites.id, { onDelete: 'cascade' }),
    /** The URL probed (sites.mcp_url when the probe ran): a probe of an older URL is not shown for a new one. */
    url: text('url').notNull(),
    status: text('status', { enum: mcpStatuses }).notNull().default('unchecked'),
    /** Why the status is not `reachable`, or why a reachable server's list was cut short; null otherwise. */
    reasonKind: text('reason_kind', { enum: mcpReasonKinds }).default('not_checked_yet'),
    /** The HTTP status the endpoint answered, for the reasons that name one. */
    httpStatus: integer('http_status'),
    transport: text('transport', { enum: mcpTransports }),
    protocolVersion: text('protocol_version'),
    serverName: text('server_name'),
    serverTitle: text('server_title'),
    serverVersion: text('server_version'),
    /** For `auth_required`: the authorization server's issuer from the protected-resource metadata, if any. */
    authIssuer: text('auth_issuer'),
    tools: jsonb('tools').$type<McpToolRecord[]>().notNull().default(sql`'[]'::jsonb`),
    toolCount: integer('tool_count').notNull().default(0),
    checkedAt: tstz('checked_at'),
    /** The last probe that listed the tools (the tool page's "last seen"). */
    toolsSeenAt: tstz('tools_seen_at'),
    /** When the server's public facts (status, server info, tools) last changed: the registry API's updatedAt. */
    changedAt: tstz('changed_at').notNull().defaultNow(),
    /**
     * Search's keys of the tool names while the server is reachable (docs/mcp-and-search.md "MCP tool names"): each
     * name lower-cased without spaces and punctuation, so `create_issue`, `create-issue` and `createIssue` are one key.
     * Derived by the database (search_mcp_tool_keys, drizzle/0046_search_mcp_tool_names.sql), never written.
     */
    toolKeys: text('tool_keys').array().notNull().generatedAlwaysAs(sql`search_mcp_tool_keys(status, tools)`),
  },
  (t) => [
    index('site_mcp_changed_idx').on(t.changedAt),
    index('site_mcp_tool_keys_idx').using('gin', t.toolKeys),
    check('site_mcp_status_check', sql`${t.status} IN ('unchecked', 'reachable', 'unreachable', 'auth_required')`),
  ],
);

/** The changelog of a server's tool list, shown to the owner: what a probe found added, removed or re-described. */
export const siteMcpChanges = pgTable(
  'site_mcp_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    siteId: uuid('site_id')
      .notNull()
      .references(() => sites.id, { onDelete: 'cascade' }),
    changedAt: tstz('changed_at').notNull().defaultNow(),
    added: text('added').array().notNull().default(sql`'{}'::text[]`),
    removed: text('removed').array().notNull().default(sql`'{}'::text[]`),
    /** Tools whose title or description changed. */
    changed: text('changed').array().notNull().default(sql`'{}'::text[]`),
  },
  (t) => [index('site_mcp_changes_site_idx').on(t.siteId, t.changedAt)],
);
