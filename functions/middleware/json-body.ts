import type { MiddlewareHandler } from 'hono';
import { ServiceError } from '../../src/errors';

const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

/**
 * Reads a JSON object body before schema validation, so each failure has its own clear error:
 * a non-JSON content type or a non-object body is invalid_request, unparsable JSON is invalid_json.
 */
export const jsonObjectBody: MiddlewareHandler = async (c, next) => {
  if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) {
    throw new ServiceError('invalid_request', 'Content-Type must be application/json.');
  }
  const text = await c.req.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_json', 'The request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError('invalid_request', 'The request body must be a JSON object.');
  }
  await next();
};
