// The `health` object's schema (docs/health.md): the site record, the public tool JSON and the MCP results declare it
// from here, so the three surfaces promise one shape. A leaf module: the CLI reads it too.
import { z } from 'zod';
import { healthStates } from './catalog/health-states';
import { isoTimestampSchema } from './timestamp-schemas';

/** What the last daily re-check of the tool's website found (docs/health.md). */
export const healthSchema = z
  .object({
    state: z
      .enum(healthStates)
      .describe(
        'ok: answered; failing: did not answer; moved: leads to another domain; unchecked: not checked yet, or robots.txt asks us not to',
      ),
    last_checked_at: isoTimestampSchema('When the site was last checked, null before the first check').nullable(),
    last_ok_at: isoTimestampSchema('When it last answered, null before it ever did').nullable(),
    failing_since: isoTimestampSchema('Failing or moved: the first check of this run that did not pass').nullable(),
    reason: z
      .string()
      .nullable()
      .describe(
        'In words: no answer, TLS error, HTTP 503, not found, DNS gone, leads to another domain, …; null when ok',
      ),
    moved_to: z.string().nullable().describe('Moved: the registrable domain the site now leads to'),
  })
  .describe("The health of the tool's website, re-checked about once a day");
