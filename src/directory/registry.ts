import { sql, type SQL } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { isoTimestamp } from '../db/sql-format';
import { ServiceError } from '../errors';
import { currentMcpProbe } from './mcp-record';
import { verifiedDomainSql } from '../domains/verified-mark';
import { shortenDescription, toolCategories, type ToolCategory } from './tool-record';
import { ownNamespace, registryVersion } from './registry-names';
import { toolUrl } from './sitemap';

// The registry-compatible read API (docs/registry-api.md): listings with a remote MCP server, in the official MCP
// Registry's shapes (server.json entries wrapped as ServerResponse), so a client or mirror that reads the official
// registry reads ours unchanged. One entry per listing, with one version: the one its server reports now.

/** The server.json schema our entries follow (the official registry's, vendored in test/fixtures/mcp-registry/). */
export const SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';
/** The official registry's `_meta` key for what the registry itself knows of an entry. */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

export const DEFAULT_SERVERS_LIMIT = 30;
export const MAX_SERVERS_LIMIT = 100;

/** The registry's ServerResponse: the server.json and the registry's metadata beside it. */
export interface ServerResponse {
  server: {
    $schema: string;
    name: string;
    title: string;
    description: string;
    version: string;
    websiteUrl: string;
    remotes: Array<{ type: 'streamable-http' | 'sse'; url: string }>;
  };
  _meta: Record<string, unknown>;
}

export interface ServerList {
  servers: ServerResponse[];
  metadata: { nextCursor?: string; count: number };
}

interface EntryRow {
  id: string;
  name: string;
  slug: string;
  title: string;
  url: string;
  description: string | null;
  remote_url: string;
  transport: string | null;
  server_version: string | null;
  mcp_status: string | null;
  tool_count: number | null;
  categories: ToolCategory[] | string | null;
  health: string | null;
  active: boolean;
  published_at: string;
  updated_at: string;
}

/**
 * Every listing that has or had a remote MCP server and was once live (alias e). It is `active` while live, shown
 * (not hidden by the health re-check) and naming an MCP URL; otherwise (withdrawn, taken down, hidden, URL removed)
 * it stays as `deleted`, so a mirror removes it. updated_at: the newest of the moments that change the entry
 * (the probe's public facts, going live, a status change, a withdrawal, a hiding) and of the listing's entries in the
 * change feed (docs/change-feed.md), which hold every other public change: an approved edit, a category, a
 * restore, the Verified mark.
 */
function entries(own: string): SQL {
  const namespace = sql`coalesce((SELECT string_agg(label, '.' ORDER BY n DESC)
    FROM unnest(string_to_array(${verifiedDomainSql}, '.')) WITH ORDINALITY AS l(label, n)), ${own})`;
  return sql`(SELECT s.id, ${namespace} || '/' || s.slug AS name, s.slug, s.name AS title, s.url,
      s.metadata->>'description' AS description, coalesce(s.mcp_url, m.url) AS remote_url,
      CASE WHEN m.url = coalesce(s.mcp_url, m.url) THEN m.transport END AS transport,
      CASE WHEN m.url = coalesce(s.mcp_url, m.url) THEN m.server_version END AS server_version,
      CASE WHEN ${currentMcpProbe} THEN m.status END AS mcp_status,
      CASE WHEN ${currentMcpProbe} THEN m.tool_count END AS tool_count,
      ${toolCategories} AS categories, h.state AS health,
      (s.status = 'live' AND NOT s.health_hidden AND s.mcp_url IS NOT NULL) AS active,
      s.published_at,
      greatest(m.changed_at, s.published_at, s.status_changed_at, s.withdrawn_at, h.hidden_at,
        (SELECT max(c.changed_at) FROM listing_changes c WHERE c.site_id = s.id)) AS updated_at
    FROM sites s LEFT JOIN site_mcp m ON m.site_id = s.id LEFT JOIN site_health h ON h.site_id = s.id
    WHERE s.published_at IS NOT NULL AND s.slug IS NOT NULL AND (s.mcp_url IS NOT NULL OR m.site_id IS NOT NULL)) e`;
}

const columns = sql`e.id, e.name, e.slug, e.title, e.url, e.description, e.remote_url, e.transport, e.server_version,
  e.mcp_status, e.tool_count, e.categories, e.health, e.active, ${isoTimestamp(sql`e.published_at`)} AS published_at,
  ${isoTimestamp(sql`e.updated_at`)} AS updated_at`;

/** Clips a text to the registry's 100 characters (title, description), never to nothing. */
const clip = (text: string, max = 100) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

function toServerResponse(row: EntryRow, origin: string): ServerResponse {
  const own = ownNamespace(origin);
  const categories =
    typeof row.categories === 'string' ? (JSON.parse(row.categories) as ToolCategory[]) : (row.categories ?? []);
  return {
    server: {
      $schema: SERVER_SCHEMA_URL,
      name: row.name,
      title: clip(row.title.trim() || row.slug),
      description: shortenDescription(row.description, 100) ?? clip(`${row.title.trim() || row.slug} on tooldir`),
      version: registryVersion(row.server_version),
      websiteUrl: row.url,
      remotes: [{ type: row.transport === 'sse' ? 'sse' : 'streamable-http', url: row.remote_url }],
    },
    _meta: {
      [OFFICIAL_META]: {
        status: row.active ? 'active' : 'deleted',
        publishedAt: row.published_at,
        updatedAt: row.updated_at,
        isLatest: true,
      },
      // Our listing beside it, under our own reverse-DNS key (docs/registry-api.md "Our _meta").
      [own]: {
        slug: row.slug,
        page_url: toolUrl(origin, row.slug),
        categories: categories.map((c) => ({ slug: c.slug, name: c.name })),
        health: row.health ?? 'unchecked',
        mcp_status: row.mcp_status ?? 'unchecked',
        tools_count: Number(row.tool_count ?? 0),
      },
    },
  };
}

/** What GET /v0.1/servers accepts (the route has parsed the strings). */
export interface ListServersInput {
  cursor?: string;
  limit?: number;
  search?: string;
  /** RFC 3339; deleted entries are included whenever it is given (as the official registry does). */
  updatedSince?: Date;
  /** `latest` (every entry: each has one version) or an exact version. */
  version?: string;
  includeDeleted?: boolean;
}

const CURSOR_PREFIX = 'r1.';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The opaque cursor: the last entry's id, so paging is by a key no update moves (each entry seen once). */
const encodeCursor = (id: string) => CURSOR_PREFIX + btoa(id).replace(/=+$/, '');
function decodeCursor(cursor: string): string {
  let id = '';
  try {
    id = cursor.startsWith(CURSOR_PREFIX) ? atob(cursor.slice(CURSOR_PREFIX.length)) : '';
  } catch {
    id = '';
  }
  if (!UUID.test(id))
    throw new ServiceError(
      'invalid_request',
      'cursor is malformed: pass metadata.nextCursor of the previous page unchanged.',
      {
        field: 'cursor',
      },
    );
  return id;
}

/** GET /v0.1/servers: a page of entries by a stable key, filtered as asked (a public read, no actor). */
export async function listRegistryServers({
  deps,
  input,
}: {
  deps: Deps;
  input: ListServersInput;
}): Promise<ServerList> {
  const limit = input.limit ?? DEFAULT_SERVERS_LIMIT;
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const filters: SQL[] = [];
  if (after) filters.push(sql`e.id > ${after}::uuid`);
  if (input.updatedSince) filters.push(sql`e.updated_at > ${input.updatedSince.toISOString()}::timestamptz`);
  else if (!input.includeDeleted) filters.push(sql`e.active`);
  if (input.search) filters.push(sql`strpos(lower(e.name), ${input.search.toLowerCase()}) > 0`);
  const where = filters.length ? sql`WHERE ${sql.join(filters, sql` AND `)}` : sql``;
  const rows = await queryRows<EntryRow>(
    deps.db,
    sql`SELECT ${columns} FROM ${entries(ownNamespace(deps.origin))} ${where} ORDER BY e.id LIMIT ${limit + 1}`,
  );
  const page = rows.slice(0, limit);
  // An exact version filters the page, never the walk: nextCursor goes on after the last entry read.
  const servers = page
    .map((row) => toServerResponse(row, deps.origin))
    .filter((entry) => !input.version || input.version === 'latest' || entry.server.version === input.version);
  const last = page.at(-1);
  return {
    servers,
    metadata: { ...(rows.length > limit && last ? { nextCursor: encodeCursor(last.id) } : {}), count: servers.length },
  };
}

const notFound = () => new ServiceError('not_found', 'No MCP server with this name is listed in the directory.');

/** One entry by its name (`com.example/acme`), deleted ones only when asked. */
async function entryByName(deps: Deps, name: string, includeDeleted: boolean): Promise<ServerResponse> {
  const slug = name.slice(name.lastIndexOf('/') + 1);
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) || slug.length > 80) throw notFound();
  const [row] = await queryRows<EntryRow>(
    deps.db,
    sql`SELECT ${columns} FROM ${entries(ownNamespace(deps.origin))} WHERE e.slug = ${slug} AND e.name = ${name}`,
  );
  if (!row || (!row.active && !includeDeleted)) throw notFound();
  return toServerResponse(row, deps.origin);
}

/** GET /v0.1/servers/{name}/versions: the entry's one version (newest first, as the registry orders them). */
export async function registryServerVersions({
  deps,
  input,
}: {
  deps: Deps;
  input: { name: string; includeDeleted?: boolean };
}): Promise<ServerList> {
  const entry = await entryByName(deps, input.name, input.includeDeleted ?? false);
  return { servers: [entry], metadata: { count: 1 } };
}

/** GET /v0.1/servers/{name}/versions/{version}: the entry at `version` (its current one) or `latest`. */
export async function registryServerVersion({
  deps,
  input,
}: {
  deps: Deps;
  input: { name: string; version: string; includeDeleted?: boolean };
}): Promise<ServerResponse> {
  const entry = await entryByName(deps, input.name, input.includeDeleted ?? false);
  if (input.version !== 'latest' && input.version !== entry.server.version)
    throw new ServiceError(
      'not_found',
      `This server has no version ${JSON.stringify(input.version)} here; its only version is ${entry.server.version} (also reachable as latest).`,
    );
  return entry;
}
