import { z } from 'zod';
import { checkName } from './name';
import { checkSubmittedUrl, readSubmittedUrl, storedUrl } from './url';
import { planNames, type PlanName } from '../catalog/plans';
import { toolCategoriesSchema } from '../categories/category-rules';

/**
 * The submit request (reference 2.1) with every rule of the field: the one schema REST (and its
 * openapi.json), MCP and the CLI's server all validate with. Messages name the field.
 */
/** An MCP endpoint: an absolute http(s) URL under url's rules; `null` clears it on an edit. */
export const mcpUrlSchema = z
  .string({ error: 'mcp_url must be a string (or null)' })
  .superRefine((value, ctx) => {
    const check = checkSubmittedUrl(value);
    if (!check.ok)
      ctx.addIssue({
        code: 'custom',
        message: check.notHttpUrl
          ? 'mcp_url must be an absolute http(s) URL, such as https://acme.com/mcp'
          : check.message.replace(/^The address/, 'The MCP address'),
      });
  })
  .transform((value) => new URL(value.trim()).href)
  .nullable()
  .describe('A remote MCP endpoint, such as https://acme.com/mcp');

export const submitInputSchema = z.object({
  name: z
    .string({ error: (i) => (i.input === undefined ? 'name is required' : 'name must be a string') })
    .superRefine((value, ctx) => {
      const check = checkName(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    })
    .transform((value) => value.trim()),
  url: z
    .string({ error: (i) => (i.input === undefined ? 'url is required' : 'url must be a string') })
    .superRefine((value, ctx) => {
      // A bare host (`acme.com`) is read with https:// added; the answers say so (urlNotices, docs/contract.md).
      const check = readSubmittedUrl(value);
      // params.notHttpUrl lets a form pick its words by the kind of failure, not by the message (submit-errors.ts).
      if (!check.ok)
        ctx.addIssue({
          code: 'custom',
          message: check.message,
          ...(check.notHttpUrl && { params: { notHttpUrl: true } }),
        });
    })
    // Stored, published and compared as the parser reads it, never as typed (src/submissions/url.ts storedUrl).
    .transform(storedUrl),
  email: z
    .email({ error: 'email must be a valid e-mail address' })
    .max(254, { error: 'email must be at most 254 characters' })
    .optional(),
  /**
   * Optional, and deliberately without a schema default (a default would make generated clients require it):
   * absent means basic for a new submission, and the record's own plan on a re-submit of a URL that waits for
   * payment (resolvePlan in ./submit.ts).
   */
  plan: z.enum(planNames, { error: `plan must be one of ${planNames.join(', ')}` }).optional(),
  /**
   * The listing's remote MCP endpoint (streamable HTTP or SSE), optional: url's own rules (src/submissions/url.ts),
   * stored in the parser's spelling; null is the same as absent. Probed at crawl time (docs/mcp-servers.md).
   */
  mcp_url: mcpUrlSchema.optional(),
  /** Category slugs (at most 3, distinct); whether each exists is checked by submitSite (one read). */
  categories: toolCategoriesSchema.optional(),
});

export type SubmitInput = z.output<typeof submitInputSchema>;

/** The submit input once its plan is decided (submitSite): what the queue and payment paths store. */
export type PlannedSubmitInput = SubmitInput & { plan: PlanName };
