// The submit rules' refusals (the one schema, src/submissions/submit-input.ts, and the verb's own) in words for
// the form, next to the field they are about. The rules stay where they are; only the sentence changes.
import type { z } from 'zod';
import { MAX_CATEGORIES_PER_TOOL } from '../../../src/categories/category-rules';
import type { SubmitErrors, SubmitField, SubmitValues } from './submit-form';

/** "name must be …" (the API's wording) → "The name must be …". */
const rephrase = (message: string, field: string, subject: string) =>
  `${message.replace(new RegExp(`^${field}(\\[\\])? `), `${subject} `)}.`;

function wordsFor(field: SubmitField, message: string, values: SubmitValues): string {
  switch (field) {
    case 'name':
      return values.name.trim() === '' ? "Enter the tool's name." : rephrase(message, 'name', 'The name');
    case 'url':
      if (values.url.trim() === '') return "Enter the address of the tool's website.";
      if (/absolute http or https URL|use http or https/.test(message)) return 'Enter a full address that starts with https:// or http://, for example https://acme.example.';
      return rephrase(message, 'url', 'The address');
    case 'email':
      return 'Enter a valid e-mail address, or leave it empty to use your account\'s.';
    case 'categories':
      return /at most/.test(message) ? `Choose at most ${MAX_CATEGORIES_PER_TOOL} categories.` : 'Choose categories from the list.';
    case 'plan':
      return 'Choose one of the plans.';
    default:
      return message;
  }
}

/** The schema's issues, the first per field. */
export function validationErrors(error: z.ZodError, values: SubmitValues): SubmitErrors {
  const errors: SubmitErrors = {};
  for (const issue of error.issues) {
    const key = issue.path[0];
    const field: SubmitField = key === 'name' || key === 'url' || key === 'email' || key === 'plan' || key === 'categories' ? key : 'form';
    errors[field] ??= wordsFor(field, issue.message, values);
  }
  return errors;
}

/** The verb's category refusals (an unknown slug: a stale or forged form; one deleted meanwhile). */
export function categoryError(message: string): string | undefined {
  if (!message.startsWith('categories:')) return undefined;
  const unknown = /unknown categor(?:y|ies) ([^;]+)/.exec(message)?.[1];
  return unknown ? `We have no category ${unknown} (any more): choose from the list.` : 'A category you chose was deleted just now: choose again.';
}
