import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isServiceError } from '../../src/errors';
import type { McpCaller } from './caller';

/** A normal result: the body as structuredContent and the very same JSON as text, for clients without structured output. */
export function toolResult(body: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
  };
}

/**
 * A tool error (isError: true) whose text is the REST error body, `{"error":{"code","message"}}`, so an agent
 * reads the same codes as a REST client. Unknown failures are logged and answered generically: a raw
 * exception message never reaches the caller.
 */
export function toolError(error: unknown, caller: McpCaller, tool: string): CallToolResult {
  let body: { code: string; message: string; site_id?: string; retry_after_seconds?: number };
  if (isServiceError(error)) {
    body = { code: error.code, message: error.message };
    if (error.status === 409 && error.details.site_id) body.site_id = error.details.site_id;
    if (error.details.retryAfterSeconds !== undefined) body.retry_after_seconds = error.details.retryAfterSeconds;
  } else {
    caller.deps.log.error('mcp tool failed', { requestId: caller.requestId, tool, err: String(error) });
    body = { code: 'internal_error', message: 'Something went wrong on our side. Please retry later.' };
  }
  return { content: [{ type: 'text', text: JSON.stringify({ error: body }) }], isError: true };
}
