import { z } from 'zod';
import { checkName } from './name';
import { mcpUrlSchema, submitInputSchema } from './submit-input';
import { hasBidiOverrides, hasControlCharacters } from '../printable-text';

/** A tool's description as the directory shows it: plain text, one paragraph's worth. */
export const DESCRIPTION_MAX = 500;

/** Plain text: well-formed, no control characters (line breaks included) and no bidirectional overrides. */
export function checkDescription(input: string): { ok: true; description: string } | { ok: false; message: string } {
  const description = input.trim().replace(/\s+/gu, ' ');
  if (!description.isWellFormed()) return { ok: false, message: 'description must be valid Unicode text' };
  if (hasControlCharacters(description))
    return { ok: false, message: 'description must not contain control characters' };
  if (hasBidiOverrides(description))
    return { ok: false, message: 'description must not contain bidirectional overrides' };
  const length = [...description].length;
  if (length < 1 || length > DESCRIPTION_MAX)
    return { ok: false, message: `description must be 1 to ${DESCRIPTION_MAX} characters` };
  return { ok: true, description };
}

/**
 * The edit request (PATCH /api/v1/sites/{site_id}, MCP edit_site): a new name (submit's rules, src/submissions/name.ts),
 * a new description, or both, for a live tool (editSite refuses neither); or, on its own, a new url for a submission
 * whose crawl failed (submit's URL rules, src/submissions/url.ts; src/submissions/change-url.ts). Messages name the field.
 */
export const editInputSchema = z.object({
  name: z
    .string({ error: 'name must be a string' })
    .superRefine((value, ctx) => {
      const check = checkName(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    })
    .transform((value) => value.trim())
    .optional(),
  description: z
    .string({ error: 'description must be a string' })
    .superRefine((value, ctx) => {
      const check = checkDescription(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    })
    .transform((value) => value.trim().replace(/\s+/gu, ' '))
    .optional(),
  /** Submit's own URL field (its rules, its messages, the stored spelling), so the two cannot drift apart. */
  url: submitInputSchema.shape.url.optional(),
  /** The listing's MCP endpoint (submit's rules); null clears it. Applied at once, with or without a text edit. */
  mcp_url: mcpUrlSchema.optional(),
});

export type EditInput = z.output<typeof editInputSchema>;
