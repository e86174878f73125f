import type { Hook } from '@hono/zod-openapi';
import { ServiceError } from '../src/errors';

/**
 * Turns the first schema failure into invalid_request with a message that names the field.
 * Our own rule messages already start with the field name; zod's generic ones get it prefixed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the hook serves every route's env
export const validationHook: Hook<any, any, any, any> = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') ?? '';
  const message = issue?.message ?? 'The request is invalid.';
  const named = field && !message.startsWith(field.split('.')[0]!) ? `${field}: ${message}` : message;
  throw new ServiceError('invalid_request', named);
};
