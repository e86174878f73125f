import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDescriptor } from './define-tool';
import { toolListing } from './tool-listing';

/**
 * Answers tools/list (not the SDK's McpServer, which would convert every schema on every request and spell nullable
 * fields as `type` arrays: single-type-schemas.ts) with the listing converted once (tool-listing.ts; on Workers by
 * the [build] command). `bindings`: the Worker's (its static assets).
 */
export function answerToolList(server: Server, tools: readonly ToolDescriptor[], bindings?: unknown): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: await toolListing(tools, bindings),
  }));
}
