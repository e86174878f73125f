// Build shim (wrangler.toml [alias] for './tool-listing', imported by functions/mcp/list-tools.ts alone): the Worker
// answers tools/list with the listing the [build] command converted (functions/mcp/tool-listing.ts, the Node server's
// code, over the same tools), read once per isolate through the ASSETS binding. So the Worker carries no zod → JSON
// Schema converter (about 6 KiB gzipped; wrangler.toml [alias] leaves zod's out). test/e2e/workerd/worker-bundle.test.ts
// compares the Worker's tools/list with Node's.
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { assetsIn, readStaticAsset } from '../../src/adapters/static-assets';
import { MCP_TOOL_LISTING_ASSET_PATH } from '../mcp/tool-listing-asset';

type ListedTool = ListToolsResult['tools'][number];

let listing: Promise<Map<string, ListedTool>> | undefined;

async function readListing(bindings: unknown): Promise<Map<string, ListedTool>> {
  const res = await readStaticAsset(assetsIn(bindings, 'tools/list'), MCP_TOOL_LISTING_ASSET_PATH);
  const tools = (await res.json()) as ListedTool[];
  return new Map(tools.map((tool) => [tool.name, tool]));
}

/** The listing of `tools` (by name, in their order) as the [build] command converted it. */
export async function toolListing(tools: ReadonlyArray<{ name: string }>, bindings: unknown): Promise<ListedTool[]> {
  const read = (listing ??= readListing(bindings));
  // A failed read is not kept: the next request tries again.
  read.catch(() => {
    if (listing === read) listing = undefined;
  });
  const byName = await read;
  return tools.map((tool) => {
    const listed = byName.get(tool.name);
    if (!listed) throw new Error(`tools/list: ${tool.name} is not in the listing the [build] command wrote`);
    return listed;
  });
}
