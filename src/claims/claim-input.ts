import { z } from 'zod';
import { checkSubmittedUrl } from '../submissions/url';

/** POST /api/v1/claims and MCP claim_site: the URL of the listing to claim (compared by its canonical form). */
export const claimInputSchema = z.object({
  url: z
    .string({ error: (i) => (i.input === undefined ? 'url is required' : 'url must be a string') })
    .superRefine((value, ctx) => {
      const check = checkSubmittedUrl(value);
      if (!check.ok) ctx.addIssue({ code: 'custom', message: check.message });
    })
    .describe("The listing's URL, as submitted or in any spelling of it (compared by canonical form)")
    .meta({ example: 'https://acme-writer.example.com/' }),
});
export type ClaimInput = z.infer<typeof claimInputSchema>;
