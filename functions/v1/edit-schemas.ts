import { z } from '@hono/zod-openapi';
import { DESCRIPTION_MAX, editInputSchema } from '../../src/submissions/edit-input';

// The edit request and the edit fields of a site record (docs/pipeline.md "Edits"); openapi.json is generated from them.

export const EditRequest = editInputSchema
  .extend({
    name: editInputSchema.shape.name.openapi({ description: 'New display name, 2 to 100 characters (the rules of submit)', example: 'Acme Writer Pro' }),
    description: editInputSchema.shape.description.openapi({
      description: `New description, plain text, 1 to ${DESCRIPTION_MAX} characters (whitespace collapsed)`,
      example: 'Drafts release notes from your commits.',
    }),
  })
  .openapi('EditRequest', { description: 'At least one of name and description' });

export const PendingEdit = z
  .object({
    edit_id: z.uuid(),
    name: z.string().optional().openapi({ description: 'The proposed name, when the edit changes it' }),
    description: z.string().optional().openapi({ description: 'The proposed description, when the edit changes it' }),
    submitted_at: z.string().openapi({ format: 'date-time', example: '2026-11-23T12:05:03.000Z' }),
  })
  .openapi('PendingEdit', { description: 'An edit waiting for an editor (only on live tools); the public page still shows the current text' });

export const LastEdit = z
  .object({
    edit_id: z.uuid(),
    status: z.enum(['approved', 'rejected']),
    reason: z.string().optional().openapi({ description: "The editor's reason, when given (e.g. why it was rejected)" }),
    decided_at: z.string().openapi({ format: 'date-time', example: '2026-11-23T13:05:03.000Z' }),
  })
  .openapi('LastEdit', { description: 'The outcome of the most recently decided edit' });
