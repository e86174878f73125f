import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSingleTypes } from '../../../functions/mcp/single-type-schemas';
import { seedTools } from '../../helpers/live-tools';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { callTool, connectMcp } from './mcp-client';

// Issue 33 point 5: tools/list names one `type` per schema node (MCP Inspector --strict: 0 warnings; .ci/run runs
// the Inspector itself), and the rewritten schemas still describe exactly what the tools answer.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Every path in a JSON Schema where `type` is an array. */
function typeArrays(node: unknown, path = '$'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => typeArrays(item, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  const own = Array.isArray((node as { type?: unknown }).type) ? [path] : [];
  return [
    ...own,
    ...Object.entries(node).flatMap(([key, value]) =>
      key === 'enum' || key === 'const' ? [] : typeArrays(value, `${path}.${key}`),
    ),
  ];
}

describe('tools/list schemas a one-type client can read', () => {
  it('lists no `type` array in any input or output schema', async () => {
    const client = await connectMcp(t);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) {
      expect(typeArrays(tool.inputSchema), `${tool.name} input`).toEqual([]);
      expect(typeArrays(tool.outputSchema), `${tool.name} output`).toEqual([]);
    }
    // The nullable fields are still nullable: get_tool's description takes a string or null.
    const getTool = tools.find((tool) => tool.name === 'get_tool')!;
    const description = (getTool.outputSchema!.properties as Record<string, unknown>).description;
    expect(description).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'null' }] });
  });

  it('the listed output schemas accept what the tools answer, nulls included, and refuse a wrong type', async () => {
    const [tool] = await seedTools(t.deps.db, [{ name: 'Portable Schema Tool', description: 'Checks schemas.' }]);
    const client = await connectMcp(t);
    const { tools } = await client.listTools();
    const schemaOf = (name: string) => tools.find((listed) => listed.name === name)!.outputSchema!;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const detail = await callTool(client, 'get_tool', { slug: tool!.slug });
    expect(detail.isError).toBeFalsy();
    const validateDetail = ajv.compile(schemaOf('get_tool'));
    expect(validateDetail(detail.structuredContent), JSON.stringify(validateDetail.errors)).toBe(true);
    // A field the schema says is a nullable string refuses a number: the rewrite kept the constraint.
    expect(validateDetail({ ...detail.structuredContent, description: 42 })).toBe(false);
    expect(validateDetail({ ...detail.structuredContent, description: null })).toBe(true);
    const page = await callTool(client, 'search_tools', { query: 'Portable Schema' });
    const validatePage = ajv.compile(schemaOf('search_tools'));
    expect(validatePage(page.structuredContent), JSON.stringify(validatePage.errors)).toBe(true);
  });
});

describe('withSingleTypes', () => {
  it('splits a type array into one branch per type, constraints on the non-null branches, annotations outside', () => {
    expect(withSingleTypes({ type: ['string', 'null'], maxLength: 5, description: 'a name', default: null })).toEqual({
      description: 'a name',
      default: null,
      anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }],
    });
  });

  it('rewrites nested schemas and leaves data (enum, const, examples) and property names alone', () => {
    const input = {
      type: 'object',
      properties: {
        type: { type: ['integer', 'null'], minimum: 1 },
        kind: { enum: [['a', 'b'], null] },
        list: { type: 'array', items: { type: ['string'] } },
      },
      required: ['type'],
      examples: [{ type: ['x', 'y'] }],
    };
    expect(withSingleTypes(input)).toEqual({
      type: 'object',
      properties: {
        type: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
        kind: { enum: [['a', 'b'], null] },
        list: { type: 'array', items: { type: 'string' } },
      },
      required: ['type'],
      examples: [{ type: ['x', 'y'] }],
    });
  });
});
