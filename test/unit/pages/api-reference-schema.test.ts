import { describe, expect, it } from 'vitest';
import { curlFor, exampleOf } from '../../../functions/pages/api-reference/curl-example';
import {
  deref,
  endpointsOf,
  type ApiDocument,
  type Schema,
} from '../../../functions/pages/api-reference/openapi-model';
import { fields, typeOf } from '../../../functions/pages/api-reference/schema-view';

// The reference page's pure rules on documents shaped to break them (the page itself is tested over HTTP against
// the real openapi.json in test/functions/v1/docs.test.ts): references that loop or dangle, schemas that contain
// themselves, allOf and oneOf, and examples that a shell would misread.
const doc = (schemas: Record<string, Schema>, paths: ApiDocument['paths'] = {}): ApiDocument => ({
  info: { title: 't', version: '1' },
  paths,
  components: { schemas },
});
const text = async (value: unknown) => String(await value);

describe('schemas in words', () => {
  it('names a schema met again inside itself instead of expanding it for ever', async () => {
    const d = doc({
      Node: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
        },
      },
    });
    const html = await text(fields(d, { $ref: '#/components/schemas/Node' }));
    expect(html).toContain('<code>children</code> <em>array of object</em>');
    expect(html).toContain('(a Node again: its fields are above)');
    expect(html.match(/<code>name<\/code>/g)).toHaveLength(1);
  });

  it('reads a reference loop (A -> B -> A) and a dangling reference as an empty schema, not a crash', async () => {
    const d = doc({ A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } });
    expect(deref(d, { $ref: '#/components/schemas/A' }).value).toEqual({});
    expect(typeOf(d, { $ref: '#/components/schemas/A' })).toBe('any');
    expect(typeOf(d, { $ref: '#/components/schemas/Missing' })).toBe('any');
    expect(await text(fields(d, { $ref: '#/components/schemas/Missing' }))).toBe('');
    // Not a local reference: left as it is.
    expect(deref(d, { $ref: 'https://example.com/schema.json' }).value).toEqual({
      $ref: 'https://example.com/schema.json',
    });
  });

  it('merges allOf into one object and lists each oneOf alternative by name', async () => {
    const d = doc({
      Base: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
      Live: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          { type: 'object', required: ['url'], properties: { url: { type: 'string' } } },
        ],
      },
      Pending: { type: 'object', properties: { checkout_url: { type: 'string' } } },
    });
    const live = await text(fields(d, { $ref: '#/components/schemas/Live' }));
    expect(live).toContain('<code>id</code> <em>string (uuid)</em> <strong>required</strong>');
    expect(live).toContain('<code>url</code> <em>string</em> <strong>required</strong>');
    const either = await text(
      fields(d, { oneOf: [{ $ref: '#/components/schemas/Live' }, { $ref: '#/components/schemas/Pending' }] }),
    );
    expect(either).toMatch(
      /One of <strong>Live<\/strong>[^]*or <strong>Pending<\/strong>[^]*<code>checkout_url<\/code>/,
    );
    expect(typeOf(d, { type: ['string', 'null'] })).toBe('string or null');
    expect(typeOf(d, { type: 'array', items: { type: 'integer' } })).toBe('array of integer');
  });

  it('escapes every name, description and example', async () => {
    const d = doc({
      X: {
        type: 'object',
        properties: { '<b>': { type: 'string', description: '<script>x</script> `a<b`', example: '"><img>' } },
      },
    });
    const html = await text(fields(d, { $ref: '#/components/schemas/X' }));
    expect(html).not.toMatch(/<script|<img|<b>/);
    expect(html).toContain('<code>a&lt;b</code>');
  });
});

describe('curl examples', () => {
  it('quotes every value for the shell: a quote in an example cannot end the word', () => {
    const d = doc(
      {
        Body: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', example: "it's; rm -rf ~" }, note: { type: 'string' } },
        },
      },
      {
        '/api/v1/things/{id}': {
          post: {
            operationId: 'makeThing',
            security: [{ apiKey: [] }],
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, example: "a'b" }],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Body' } } } },
          },
        },
      },
    );
    const [endpoint] = endpointsOf(d);
    const curl = curlFor(d, endpoint!, 'http://tooldir.test');
    expect(curl).toBe(
      [
        "curl -X POST 'http://tooldir.test/api/v1/things/a'\\''b'",
        '-H "Authorization: Bearer $TOOLDIR_API_KEY"',
        "-H 'Content-Type: application/json'",
        `-d '{"name":"it'\\''s; rm -rf ~"}'`,
      ].join(' \\\n  '),
    );
    // Only required fields and those with an example make the body.
    expect(exampleOf(d, { $ref: '#/components/schemas/Body' })).toEqual({ name: "it's; rm -rf ~" });
  });
});
