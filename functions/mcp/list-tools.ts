import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolDescriptor } from './define-tool';
import { withSingleTypes } from './single-type-schemas';

type ListedTool = ListToolsResult['tools'][number];

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

/** The hints a host reads: read-only tools are idempotent; no tool destroys or reaches outside the directory. */
export function toolAnnotations(tool: ToolDescriptor): NonNullable<ListedTool['annotations']> {
  return {
    title: tool.title,
    readOnlyHint: tool.readOnly,
    idempotentHint: tool.readOnly,
    destructiveHint: false,
    openWorldHint: false,
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

/**
 * Answers tools/list in place of the McpServer's handler, which converts every schema on every request and spells
 * nullable fields as `type` arrays (single-type-schemas.ts). Call after the tools are registered.
 */
export function answerToolList(server: McpServer, tools: readonly ToolDescriptor[]): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listedTools(tools) }));
}
