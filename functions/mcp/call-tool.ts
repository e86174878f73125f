import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError } from '../../src/errors';
import { invalidRequestFrom } from '../validation-hook';
import type { McpCaller } from './caller';
import type { ToolDescriptor } from './tools';
import { toolError, toolErrorBody, toolResult } from './tool-result';

/**
 * Runs one tool call: validates the arguments with the tool's own zod schema (the one tools/list shows), so a
 * failure is the same invalid_request body REST answers for that input, as a tool error the model can read and
 * correct (MCP spec: input validation errors are tool execution errors). The output is checked against the
 * declared outputSchema, as the SDK did: a mismatch is our bug, logged and answered internal_error.
 */
export async function runTool(tool: ToolDescriptor, caller: McpCaller, args: unknown): Promise<CallToolResult> {
  // Backstop for the HTTP-level 403 of POST /mcp (protected.ts): a token never runs a tool beyond its scopes.
  if (caller.scopes && !caller.scopes.includes(tool.scope)) {
    return toolError(
      new ServiceError('forbidden', `This token lacks the scope ${tool.scope}; reconnect the app and allow it.`),
      caller,
      tool.name,
    );
  }
  const input = await tool.inputSchema.safeParseAsync(args);
  if (!input.success) return toolError(invalidRequestFrom(input.error), caller, tool.name);
  try {
    const body = await tool.run(caller, input.data, args);
    const output = tool.outputSchema.safeParse(body);
    if (!output.success)
      throw new Error(`${tool.name} returned a body outside its outputSchema: ${output.error.message}`);
    return toolResult(body);
  } catch (error) {
    return toolError(error, caller, tool.name);
  }
}

/**
 * Answers tools/call (not the SDK's McpServer, whose handler validates arguments itself and answers a failure as
 * plain text, "MCP error -32602: Input validation error: ...", outside the service's error shape).
 */
export function answerToolCalls(server: Server, caller: McpCaller, tools: ToolDescriptor[]): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      // An unknown tool is a protocol error in MCP (not a tool result); its data carries our error body.
      const unknown = new ServiceError(
        'not_found',
        `Unknown tool: ${request.params.name}. tools/list names the tools.`,
      );
      throw new McpError(ErrorCode.InvalidParams, unknown.message, toolErrorBody(unknown));
    }
    return runTool(tool, caller, request.params.arguments ?? {});
  });
}
