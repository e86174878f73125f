import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ServiceError, isServiceError } from '../../src/errors';
import { errorBody, serviceUnavailable, type ErrorBody } from '../errors';
import { isDatabaseUnavailable } from '../../src/database-unavailable';
import type { McpCaller } from './caller';

/** A normal result: the body as structuredContent and the very same JSON as text, for clients without structured output. */
export function toolResult(body: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
  };
}

/** The REST error body of a ServiceError; retry_after_seconds stands in for the Retry-After header MCP cannot send. */
export function toolErrorBody(error: ServiceError): ErrorBody {
  return errorBody(error, { retryAfterInBody: true });
}

/** Any failure as the ServiceError REST would answer: an unreachable database is service_unavailable (the REST rule). */
function asServiceError(error: unknown, caller: McpCaller, tool: string): ServiceError {
  if (isServiceError(error)) return error;
  const unavailable = isDatabaseUnavailable(error);
  const cause = error instanceof Error && error.cause !== undefined ? String(error.cause) : undefined;
  caller.deps.log.error(unavailable ? 'mcp tool failed: service unavailable' : 'mcp tool failed', {
    requestId: caller.requestId,
    tool,
    err: String(error),
    cause,
  });
  if (unavailable) return serviceUnavailable();
  return new ServiceError('internal_error', 'Something went wrong on our side. Please retry later.');
}

/**
 * A tool error (isError: true) whose text is the REST error body, `{"error":{"code","message"}}`, so an agent
 * reads the same codes as a REST client. Unknown failures are logged and answered generically: a raw
 * exception message never reaches the caller.
 */
export function toolError(error: unknown, caller: McpCaller, tool: string): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(toolErrorBody(asServiceError(error, caller, tool))) }],
    isError: true,
  };
}
