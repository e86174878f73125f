import { DESCRIPTION_MAX, editInputSchema } from '../../src/submissions/edit-input';

// The edit request (docs/pipeline.md "Edits"); openapi.json is generated from it. The edit fields of the site
// record live with the record (src/submissions/edit-record.ts, named in ./schemas.ts).

export const EditRequest = editInputSchema
  .extend({
    name: editInputSchema.shape.name.meta({
      description: 'New display name, 2 to 100 characters (the rules of submit)',
      example: 'Acme Writer Pro',
    }),
    description: editInputSchema.shape.description.meta({
      description: `New description, plain text, 1 to ${DESCRIPTION_MAX} characters (whitespace collapsed)`,
      example: 'Drafts release notes from your commits.',
    }),
  })
  .meta({ id: 'EditRequest', description: 'At least one of name and description' });
