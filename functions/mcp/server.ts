import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { McpCaller } from './caller';
import { mcpTools, type ToolDescriptor } from './tools';
import { answerToolCalls } from './call-tool';
import { answerToolList } from './list-tools';

const INSTRUCTIONS = `tooldir is a directory of AI tools.
- Find tools: search_tools (full-text over names and descriptions, typo-tolerant on names), then get_tool with a result's slug. No API key needed.
- Browse by category: list_categories, then search_tools with category (and an optional query). No API key needed.
- Submit a tool: submit_site (needs the API key in the Authorization header). If the result has status pending_payment, show its checkout_url to the user: the submission is queued only after they pay.
- Follow a submission: get_site_status with the site_id from submit_site. Once it is live, get_tool finds it by the same site_id.`;

/**
 * The SDK validates JSON Schema only for elicitation answers, which this server never requests. Without this
 * it would build an Ajv instance per request (costly, and Ajv compiles with eval, which Workers forbid).
 */
const noElicitationValidator: jsonSchemaValidator = {
  getValidator: () => () => ({
    valid: false,
    data: undefined,
    errorMessage: 'This server does not request elicitation.',
  }),
};

/**
 * A fresh MCP server for one HTTP request: its tools close over this request's caller, so no identity or
 * state can leak between requests (stateless streamable HTTP). `bindings`: the Worker's (tools/list reads its
 * listing from the static assets there: list-tools.ts).
 *
 * The SDK's low-level Server with the service's own tools/list and tools/call handlers (list-tools.ts,
 * call-tool.ts), which answer for every tool; the SDK's McpServer would only register the tools for the handlers
 * these replace. Its tool list never changes while a client is connected (a fresh server per request), so it
 * never sends notifications/tools/list_changed and does not promise it.
 */
export function createMcpServer(caller: McpCaller, tools: ToolDescriptor[] = mcpTools, bindings?: unknown): Server {
  const server = new Server(
    { name: 'tooldir', title: 'tooldir – AI tool directory', version: '1.0.0' },
    {
      instructions: INSTRUCTIONS,
      jsonSchemaValidator: noElicitationValidator,
      capabilities: tools.length > 0 ? { tools: { listChanged: false } } : {},
    },
  );
  if (tools.length > 0) {
    answerToolCalls(server, caller, tools);
    answerToolList(server, tools, bindings);
  }
  return server;
}
