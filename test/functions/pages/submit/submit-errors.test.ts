// The /submit form's words for a refusal are chosen by the schema issue's path and code and by the service error's
// details.field, never by the message: each case below pairs a message that would mislead a text match with the
// code or field that decides. (The page itself: test/functions/pages/submit/submit-page.test.ts.)
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { categoryError, validationErrors } from '../../../../functions/pages/submit/submit-errors';
import type { SubmitValues } from '../../../../functions/pages/submit/submit-form';
import { ServiceError } from '../../../../src/errors';
import { submitInputSchema } from '../../../../src/submissions/submit-input';

const values = (fields: Partial<SubmitValues> = {}): SubmitValues => ({
  name: 'Acme',
  url: 'https://acme.example',
  email: '',
  mcp_url: '',
  plan: 'basic',
  categories: [],
  ...fields,
});

/** The form's errors for what the real schema says about `input`. */
function formErrors(input: Partial<SubmitValues>) {
  const result = submitInputSchema.safeParse({
    ...values(),
    ...input,
    email: input.email || undefined,
    mcp_url: input.mcp_url || undefined,
  });
  if (result.success) throw new Error('expected the input to fail the schema');
  return validationErrors(result.error, values(input));
}

type Issue = z.ZodError['issues'][number];
const errorsFor = (issue: Issue, fields: Partial<SubmitValues> = {}) =>
  validationErrors(new z.ZodError([issue]), values(fields));

const NOT_AN_ADDRESS = "Enter the website's address, such as https://acme.com.";
const AT_MOST = 'Choose at most 3 categories.';

describe('validationErrors (the schema, in the form’s words)', () => {
  it("says the URL rule's own words (the API's, after `url: `): a bare host passes, nothing claims a scheme is missing", () => {
    expect(
      submitInputSchema.parse({ ...values(), url: 'acme.example', email: undefined, mcp_url: undefined }).url,
    ).toBe('https://acme.example/');
    expect(formErrors({ url: 'not a url' }).url).toBe(NOT_AN_ADDRESS);
    expect(formErrors({ url: 'http://' }).url).toBe(NOT_AN_ADDRESS);
    expect(formErrors({ url: 'ftp://acme.example' }).url).toBe(
      'The address must start with https:// or http://, not ftp:.',
    );
    expect(formErrors({ url: 'https://user@acme.example' }).url).toBe(
      'The address must not contain a user name or password.',
    );
    expect(formErrors({ url: '  ' }).url).toBe(NOT_AN_ADDRESS);
  });

  it('says the MCP endpoint rule next to its field', () => {
    expect(formErrors({ mcp_url: 'ftp://acme.example/mcp' }).mcp_url).toBe(
      'The MCP server must be an absolute http(s) URL, such as https://acme.com/mcp.',
    );
    expect(formErrors({ mcp_url: 'https://u:p@acme.example/mcp' }).mcp_url).toBe(
      'The MCP address must not contain a user name or password.',
    );
  });

  it('says "at most" for too many categories and "from the list" for any other category issue', () => {
    expect(formErrors({ categories: ['a', 'b', 'c', 'd'] }).categories).toBe(AT_MOST);
    expect(formErrors({ categories: ['chat', 'chat'] }).categories).toBe('Choose categories from the list.');
    expect(formErrors({ categories: ['Not A Slug'] }).categories).toBe('Choose categories from the list.');
  });

  it('places each issue by its path, whatever its message', () => {
    expect(errorsFor({ code: 'custom', path: ['plan'], message: 'url must use http or https', input: 'x' })).toEqual({
      plan: 'Choose one of the plans.',
    });
    expect(
      errorsFor({ code: 'custom', path: [], message: 'categories must name at most 3 categories', input: {} }),
    ).toEqual({
      form: 'categories must name at most 3 categories',
    });
  });

  it('shows a URL rule’s sentence as it is, and a schema issue of another kind (not a string) as “not an address”', () => {
    expect(
      errorsFor({ code: 'custom', path: ['url'], message: 'The address must have a valid port', input: 'x' }).url,
    ).toBe('The address must have a valid port.');
    expect(
      errorsFor({ code: 'invalid_type', path: ['url'], message: 'url must be a string', expected: 'string', input: 3 })
        .url,
    ).toBe(NOT_AN_ADDRESS);
  });

  it('picks the category words by the issue’s code, not by its text', () => {
    const tooBig: Issue = {
      code: 'too_big',
      path: ['categories'],
      message: 'categories are wrong',
      origin: 'array',
      maximum: 3,
      input: [],
    };
    expect(errorsFor(tooBig).categories).toBe(AT_MOST);
    expect(
      errorsFor({
        code: 'custom',
        path: ['categories'],
        message: 'categories must name at most 3 categories',
        input: [],
      }).categories,
    ).toBe('Choose categories from the list.');
  });
});

describe('categoryError (the verb’s refusals of categories)', () => {
  it('names the unknown slugs from details.values, and says a deleted one was deleted', () => {
    const unknown = new ServiceError('invalid_request', 'something else entirely', {
      field: 'categories',
      values: ['nope', 'gone'],
    });
    expect(categoryError(unknown)).toBe('We have no category "nope", "gone" (any more): choose from the list.');
    expect(categoryError(new ServiceError('conflict', 'something else entirely', { field: 'categories' }))).toBe(
      'A category you chose was deleted just now: choose again.',
    );
  });

  it('is not about categories unless details.field says so, whatever the message', () => {
    expect(
      categoryError(
        new ServiceError(
          'invalid_request',
          'categories: unknown category "nope"; GET /api/v1/categories lists the slugs.',
        ),
      ),
    ).toBeUndefined();
    expect(
      categoryError(new ServiceError('invalid_request', 'categories: unknown category "nope"', { field: 'url' })),
    ).toBeUndefined();
  });
});
