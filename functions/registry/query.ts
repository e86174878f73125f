// Query values of the registry API, parsed once for its three routes: bad values are 400s in the contract's error shape.
import { z } from '@hono/zod-openapi';

/** include_deleted: true or false, as the official registry takes it. */
export const includeDeleted = z
  .enum(['true', 'false'], { error: 'include_deleted must be true or false' })
  .optional()
  .openapi({ type: 'boolean', default: false, description: 'true: also entries whose status is deleted' });

/** A server name as the path carries it, URL-encoded (com.example%2Facme). */
export const serverName = z
  .string()
  .max(300, { error: 'serverName is too long' })
  .openapi({ description: 'The URL-encoded server name, e.g. com.example%2Facme', example: 'com.example%2Facme' });
