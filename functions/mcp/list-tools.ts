import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDescriptor } from './define-tool';
import { toolListing } from './tool-listing';

/**
 * Answers tools/list in place of the McpServer's handler, which converts every schema on every request and spells
 * nullable fields as `type` arrays (single-type-schemas.ts): with the listing converted once (tool-listing.ts; on
 * Workers by the [build] command). `bindings`: the Worker's (its static assets). Call after the tools are registered.
 */
export function answerToolList(server: McpServer, tools: readonly ToolDescriptor[], bindings?: unknown): void {
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await toolListing(tools, bindings),
  }));
}
