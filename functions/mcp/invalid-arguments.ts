import { ServiceError, errorBody } from '../../src/errors';

/**
 * The SDK answers `tools/call` with non-object `arguments` (a string, array, number, null) as -32603
 * "internal error". It is the caller's mistake: find such calls first and answer -32602 (invalid params).
 */
export async function invalidToolArguments(request: Request): Promise<Response | undefined> {
  // The route's body limit (BODY_LIMIT_BYTES) has already bounded what is read here.
  let parsed: unknown;
  try {
    parsed = JSON.parse(await request.clone().text());
  } catch {
    return undefined; // Unparsable JSON: the transport's own parse error (-32700) answers it.
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  const bad = messages.find((m): m is { id?: unknown } => {
    if (!m || typeof m !== 'object') return false;
    const { method, params } = m as { method?: unknown; params?: { arguments?: unknown } };
    if (method !== 'tools/call' || !params || typeof params !== 'object' || !('arguments' in params)) return false;
    const args = params.arguments;
    return args === null || typeof args !== 'object' || Array.isArray(args);
  });
  if (!bad) return undefined;
  const id = typeof bad.id === 'string' || typeof bad.id === 'number' ? bad.id : null;
  // data carries the service's error body, as on every -32602 this server sends (see call-tool.ts).
  const message = 'arguments must be a JSON object (tools/call params.arguments).';
  return Response.json(
    {
      jsonrpc: '2.0',
      id,
      error: {
        code: -32602,
        message: `Invalid params: ${message}`,
        data: errorBody(new ServiceError('invalid_request', message)),
      },
    },
    { status: 200 },
  );
}
