import { z } from 'zod';
import { isoTimestampSchema } from '../timestamp-schemas';
import { listingChangeKinds } from '../catalog/listing-change-kinds';
import { toolDetailSchema } from './tool-schemas';

// The change feed's output shapes (./changes.ts), documented in openapi.json.

export const listingChangeSchema = z.object({
  cursor: z.string().describe('Pass as since to continue after this entry'),
  kind: z
    .enum(listingChangeKinds)
    .describe(
      'appeared: became listed (published, restored after a health hide, republished); changed: a public field changed while listed; left: no longer listed (withdrawn, taken down, hidden by the daily check, deleted)',
    ),
  changed_at: isoTimestampSchema('When the change was written'),
  site_id: z.string().describe('The listing’s stable id (a slug can change; this never does)'),
  slug: z.string().nullable().describe('The listing’s slug at this change (for left: the slug it had)'),
  previous_slug: z
    .string()
    .nullable()
    .describe('The slug before this change when it renamed the listing (the old slug now answers 301); else null'),
  tool: toolDetailSchema
    .nullable()
    .describe(
      'The listing as it is NOW (GET /api/v1/tools/{slug}), not as it was at this change; null when it is not listed now',
    ),
});

export const changesPageSchema = z.object({
  changes: z.array(listingChangeSchema).describe('Oldest first'),
  next_cursor: z
    .string()
    .describe('Pass as since for what comes next; the same cursor as since when nothing new is ready yet'),
  has_more: z.boolean().describe('More entries are ready now: ask again at once instead of waiting'),
});
