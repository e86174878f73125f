-- Listings with an MCP server, read side (issue 33, docs/registry-api.md, docs/pages.md "Caching").
--
-- The tool page shows what the last probe of a listing's MCP server found (its status, its tools, when they were
-- last seen) and search's has_mcp filter reads whether it was reachable: both come from site_mcp, which no trigger
-- of sites sees. So a statement that changes what a page shows of site_mcp bumps listing_version once, like a
-- change of categories does (drizzle/0029_listing_version.sql): a statement-level trigger, constant work per
-- statement whatever the number of rows (issue 27). A probe that only records checked_at (nothing shown changes) is
-- no part of the column list and bumps nothing. The column list is what the pages read (src/directory/mcp-record.ts).
CREATE TRIGGER site_mcp_listing_change AFTER INSERT OR DELETE OR UPDATE OF url, status, transport, tools, tools_seen_at ON site_mcp
  FOR EACH STATEMENT EXECUTE FUNCTION listing_bump();
