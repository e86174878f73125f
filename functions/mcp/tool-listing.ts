// The tools as tools/list shows them, with JSON Schemas converted from the tools' zod schemas (Node and tests, and
// the Worker's [build] command). The Worker build puts functions/worker/mcp-tool-listing-from-assets.ts in its
// place (wrangler.toml [alias] "./tool-listing"), which reads the listing the [build] command converted with this
// same code, so the Worker carries no zod → JSON Schema converter.
import type { ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDescriptor } from './define-tool';
import { toolAnnotations } from './tool-annotations';
import { withSingleTypes } from './single-type-schemas';

export type ListedTool = ListToolsResult['tools'][number];

/** The listing of each tool set, built once per process: a fresh server answers each request (server.ts). */
const listings = new WeakMap<readonly ToolDescriptor[], ListedTool[]>();

/** A tool as tools/list shows it: the SDK's fields, with schemas whose every `type` names one type. */
function listedTool(tool: ToolDescriptor): ListedTool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: withSingleTypes(z.toJSONSchema(tool.inputSchema, { io: 'input' })) as ListedTool['inputSchema'],
    outputSchema: withSingleTypes(z.toJSONSchema(tool.outputSchema, { io: 'output' })) as ListedTool['outputSchema'],
    annotations: toolAnnotations(tool),
  };
}

export function listedTools(tools: readonly ToolDescriptor[]): ListedTool[] {
  let listing = listings.get(tools);
  if (!listing) {
    listing = tools.map(listedTool);
    listings.set(tools, listing);
  }
  return listing;
}

/** The listing of `tools` as tools/list answers it. `bindings` are the Worker's (unused here). */
export async function toolListing(tools: readonly ToolDescriptor[], _bindings: unknown): Promise<ListedTool[]> {
  return listedTools(tools);
}
