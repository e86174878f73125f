import type { Hook } from '@hono/zod-openapi';
import { ServiceError } from '../src/errors';

/** The part of a zod error the message is built from (zod 3 and 4 agree on it). */
export interface SchemaFailure {
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>;
}

/**
 * The first schema failure as invalid_request with a message that names the field: REST bodies and MCP tool
 * arguments both answer through this, so the same input gets the same error on every surface.
 * Our own rule messages already start with the field name; zod's generic ones get it prefixed.
 */
export function invalidRequestFrom(failure: SchemaFailure): ServiceError {
  const issue = failure.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  const message = issue?.message ?? 'The request is invalid.';
  const named = field && !message.startsWith(field.split('.')[0]!) ? `${field}: ${message}` : message;
  return new ServiceError('invalid_request', named);
}

/** Turns the first schema failure of a route's input into invalid_request (see invalidRequestFrom). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the hook serves every route's env
export const validationHook: Hook<any, any, any, any> = (result) => {
  if (result.success) return;
  throw invalidRequestFrom(result.error);
};
