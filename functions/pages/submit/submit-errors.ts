// The submit rules' refusals (the one schema, src/submissions/submit-input.ts, and the verb's own) in words for
// the form, next to the field they are about. The field and the words are chosen by a schema issue's path and code
// and by a service error's details.field, never by reading a message; the rules stay where they are.
import type { z } from 'zod';
import { MAX_CATEGORIES_PER_TOOL } from '../../../src/categories/category-rules';
import type { ServiceError } from '../../../src/errors';
import { NOT_A_URL } from '../../../src/submissions/url';
import type { SubmitErrors, SubmitField, SubmitValues } from './submit-form';

type Issue = z.ZodError['issues'][number];

/** "name must be …" (the API's wording) → "The name must be …". */
const rephrase = (message: string, field: string, subject: string) =>
  `${message.replace(new RegExp(`^${field}(\\[\\])? `), `${subject} `)}.`;

function wordsFor(field: SubmitField, issue: Issue, values: SubmitValues): string {
  switch (field) {
    case 'name':
      return values.name.trim() === '' ? "Enter the tool's name." : rephrase(issue.message, 'name', 'The name');
    case 'url':
      // The rule's own words for people (src/submissions/url.ts), as the API, MCP and the CLI say them.
      return issue.code === 'custom' ? `${issue.message}.` : `${NOT_A_URL}.`;
    case 'mcp_url':
      return issue.code === 'custom'
        ? `${issue.message.replace(/^mcp_url must be/, 'The MCP server must be')}.`
        : 'Enter an address such as https://acme.com/mcp.';
    case 'email':
      return "Enter a valid e-mail address, or leave it empty to use your account's.";
    case 'categories':
      return issue.code === 'too_big'
        ? `Choose at most ${MAX_CATEGORIES_PER_TOOL} categories.`
        : 'Choose categories from the list.';
    case 'plan':
      return 'Choose one of the plans.';
    default:
      return issue.message;
  }
}

/** The schema's issues, the first per field (the first segment of the issue's path). */
export function validationErrors(error: z.ZodError, values: SubmitValues): SubmitErrors {
  const errors: SubmitErrors = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    const field: SubmitField =
      key === 'name' || key === 'url' || key === 'email' || key === 'mcp_url' || key === 'plan' || key === 'categories'
        ? key
        : 'form';
    errors[field] ??= wordsFor(field, issue, values);
  }
  return errors;
}

/** The verb's category refusals (unknown slugs: a stale or forged form; none: one was deleted meanwhile). */
export function categoryError(error: ServiceError): string | undefined {
  if (error.details.field !== 'categories') return undefined;
  const unknown = error.details.values ?? [];
  return unknown.length > 0
    ? `We have no category ${unknown.map((slug) => `"${slug}"`).join(', ')} (any more): choose from the list.`
    : 'A category you chose was deleted just now: choose again.';
}
