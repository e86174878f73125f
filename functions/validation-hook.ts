import type { Hook } from '@hono/zod-openapi';
import { issueField, ServiceError, type SchemaFailure } from '../src/errors';

/**
 * The first schema failure as invalid_request, its path as `details.field` and a message that names the field: REST
 * bodies and MCP tool arguments both answer through this, so the same input gets the same error on every surface.
 * Our own rule messages already start with the field name; zod's generic ones get it prefixed.
 */
export function invalidRequestFrom(failure: SchemaFailure): ServiceError {
  const issue = failure.issues[0];
  const field = issueField(issue);
  const message = issue?.message ?? 'The request is invalid.';
  if (field === undefined) return new ServiceError('invalid_request', message);
  const named = message.startsWith(field.split('.')[0]!) ? message : `${field}: ${message}`;
  return new ServiceError('invalid_request', named, { field });
}

/** Turns the first schema failure of a route's input into invalid_request (see invalidRequestFrom). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the hook serves every route's env
export const validationHook: Hook<any, any, any, any> = (result) => {
  if (result.success) return;
  throw invalidRequestFrom(result.error);
};
