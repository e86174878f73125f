// The MCP tools' listing as the Worker's [build] command writes it into the static assets (tools/list's `tools`,
// JSON Schemas converted from the tools' zod schemas): functions/worker/build-assets.ts writes it, and
// functions/worker/mcp-tool-listing-from-assets.ts reads it. Public like every asset, as tools/list is.
export const MCP_TOOL_LISTING_ASSET_PATH = '/api/mcp/tool-listing.json';
