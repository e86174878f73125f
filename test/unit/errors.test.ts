// An error names the field it is about (details.field): a schema failure by its first issue's path, on the edges
// (the zod-openapi defaultHook and MCP tool arguments, invalidRequestFrom) and in src (invalidInput). The field
// stays internal: the error body is {"error":{"code","message"}} as before.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { invalidRequestFrom, validationHook } from '../../functions/validation-hook';
import { errorBody, invalidInput, issueField, ServiceError } from '../../src/errors';
import { submitInputSchema } from '../../src/submissions/submit-input';

/** The ServiceError the hook turns a failed parse of `body` into. */
function hookError(body: unknown): ServiceError {
  const result = submitInputSchema.safeParse(body);
  if (result.success) throw new Error('expected the body to fail the schema');
  return invalidRequestFrom(result.error);
}

describe('issueField', () => {
  it('is the path, dotted, and nothing for the input as a whole', () => {
    expect(issueField({ path: ['url'] })).toBe('url');
    expect(issueField({ path: ['categories', 1] })).toBe('categories.1');
    expect(issueField({ path: [] })).toBeUndefined();
    expect(issueField(undefined)).toBeUndefined();
  });
});

describe('invalidRequestFrom (the defaultHook and MCP tool arguments)', () => {
  it("puts the first issue's path in details.field, whatever the message says", () => {
    expect(hookError({ name: 'Acme', url: 'ftp://acme.example' })).toMatchObject({
      code: 'invalid_request',
      message: 'url: The address must start with https:// or http://, not ftp:',
      details: { field: 'url' },
    });
    expect(hookError({ url: 'https://acme.example' }).details).toEqual({ field: 'name' });
    expect(
      hookError({ name: 'Acme', url: 'https://acme.example', categories: ['chat', 'Not A Slug'] }).details,
    ).toEqual({ field: 'categories.1' });
    expect(hookError({ name: 'Acme', url: 'https://acme.example', categories: ['a', 'b', 'c', 'd'] }).details).toEqual({
      field: 'categories',
    });
  });

  it('keeps the messages as they were: ours name the field, a generic one gets it prefixed', () => {
    const generic = invalidRequestFrom({
      issues: [{ path: ['limit'], message: 'Too big: expected number to be <=50' }],
    });
    expect(generic.message).toBe('limit: Too big: expected number to be <=50');
    expect(generic.details).toEqual({ field: 'limit' });
    const whole = invalidRequestFrom({ issues: [{ path: [], message: 'Expected object, received string' }] });
    expect(whole.message).toBe('Expected object, received string');
    expect(whole.details).toEqual({});
  });

  it('is what the hook throws for a failed route input', () => {
    const result = z.object({ url: z.string() }).safeParse({ url: 1 });
    expect(() => validationHook({ ...result, target: 'json' } as never, {} as never)).toThrow(
      expect.objectContaining({ code: 'invalid_request', details: { field: 'url' } }),
    );
  });
});

describe('invalidInput (a schema failure inside a verb)', () => {
  it("keeps the first issue's message as written and names its path", () => {
    const failed = z
      .object({ from: z.string().regex(/^\d{4}-\d\d-\d\d$/, { error: 'from must be YYYY-MM-DD' }) })
      .safeParse({ from: 'x' });
    if (failed.success) throw new Error('expected a failure');
    const error = invalidInput(failed.error, 'The request is invalid.');
    expect(error).toMatchObject({
      code: 'invalid_request',
      message: 'from must be YYYY-MM-DD',
      details: { field: 'from' },
    });
    expect(invalidInput({ issues: [] }, 'The request is invalid.')).toMatchObject({
      message: 'The request is invalid.',
      details: {},
    });
  });
});

describe('the error body', () => {
  it('does not carry the field or its values (the contract shape stays {"error":{"code","message"}})', () => {
    const error = new ServiceError('invalid_request', 'categories: unknown category "x"', {
      field: 'categories',
      values: ['x'],
    });
    expect(errorBody(error)).toEqual({
      error: { code: 'invalid_request', message: 'categories: unknown category "x"' },
    });
  });
});
