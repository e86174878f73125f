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
    url: editInputSchema.shape.url.meta({
      description:
        'Only for a submission whose crawl failed, and on its own: its new address (the URL rules of submit)',
      example: 'https://acme.example/',
    }),
    mcp_url: editInputSchema.shape.mcp_url.meta({
      description: 'The MCP endpoint of a tool in review or live (the rules of url); null removes it',
      example: 'https://acme.example/mcp',
    }),
  })
  .meta({
    id: 'EditRequest',
    description:
      'At least one of name, description and mcp_url (a tool in review or live), or url alone (a failed crawl)',
  });
