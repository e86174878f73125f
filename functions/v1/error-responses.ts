// The error responses of the REST contract (docs/contract.md, "Errors"), as openapi.json
// declares them for every route: REST, the operator API and the membership checkout share them.
import { z } from '@hono/zod-openapi';
import { errorCodes } from '../../src/errors';

export const ErrorBody = z
  .object({
    error: z.object({
      code: z
        .enum(errorCodes)
        .openapi({
          description: "What went wrong, one of the service's error codes (src/errors.ts)",
          example: 'invalid_request',
        }),
      message: z.string().openapi({ example: 'name must be 2 to 100 characters' }),
      site_id: z
        .uuid()
        .optional()
        .openapi({ description: "On 409 only, when the existing submission is the caller's" }),
    }),
  })
  .openapi('Error');

/** An error response of the contract's shape, for a route's `responses`. */
export const errorContent = (description: string) => ({
  content: { 'application/json': { schema: ErrorBody } },
  description,
});

/** Error responses every keyed endpoint can give. */
export const keyedErrors = {
  401: errorContent('Missing, invalid or revoked API key (code unauthorized)'),
  429: errorContent('Rate limit exceeded (code rate_limited); see Retry-After'),
  500: errorContent('Unexpected failure (code internal_error)'),
  503: errorContent('Temporarily unavailable (code service_unavailable); retry'),
};
