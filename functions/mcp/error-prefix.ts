// One "MCP error <code>: " in front of an error message, not two.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';

const PREFIX = /^MCP error -?\d+: /;

/**
 * The SDK's McpError writes "MCP error <code>: " into its own message, and a client writes it again when it
 * turns the answer back into an McpError: hosts showed `MCP error -32602: MCP error -32602: Unknown tool: x`.
 * The code travels in its own field, so the message this server sends is the message alone, whichever handler
 * (ours or the SDK's) threw it.
 */
export function sendPlainErrorMessages(transport: Transport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if (!isJSONRPCErrorResponse(message) || !PREFIX.test(message.error.message)) return send(message, options);
    return send(
      { ...message, error: { ...message.error, message: message.error.message.replace(PREFIX, '') } },
      options,
    );
  };
}
