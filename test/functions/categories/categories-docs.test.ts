// Categories are documented where agents and programmers look: openapi.json (generated from the route schemas) and llms.txt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown>; security?: unknown }
    >
  >;
  components: {
    schemas: Record<
      string,
      { properties?: Record<string, { type?: string; maxItems?: number; items?: unknown }>; required?: string[] }
    >;
  };
};

describe('documentation of categories', () => {
  it('openapi.json has the category endpoints, the search filter and categories in submit, review and tool reads', async () => {
    const doc = (await (await t.request('/api/v1/openapi.json')).json()) as Doc;
    expect(Object.keys(doc.paths['/api/v1/categories'] ?? {})).toEqual(['get']);
    expect(doc.paths['/api/v1/categories']!.get!.security).toEqual([]); // public: an empty requirement
    expect(Object.keys(doc.paths['/api/v1/admin/categories'] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths['/api/v1/admin/categories/{slug}'] ?? {}).sort()).toEqual(['delete', 'patch']);
    expect(Object.keys(doc.paths['/api/v1/admin/categories/{slug}']!.delete!.responses)).toEqual(
      expect.arrayContaining(['204', '404', '409']),
    );
    expect(Object.keys(doc.paths['/api/v1/admin/categories']!.post!.responses)).toEqual(
      expect.arrayContaining(['201', '400', '409']),
    );
    expect(doc.paths['/api/v1/tools']!.get!.parameters!.map((p) => p.name)).toContain('category');

    const schemas = doc.components.schemas;
    expect(schemas.CategoryWithCount?.required?.sort()).toEqual(['description', 'name', 'slug', 'tool_count']);
    expect(schemas.SubmitRequest?.properties?.categories).toMatchObject({ type: 'array', maxItems: 3 });
    expect(schemas.SubmitRequest?.required).not.toContain('categories');
    expect(schemas.ReviewDecision?.properties?.categories).toMatchObject({ type: 'array', maxItems: 3 });
    for (const name of ['ToolSummary', 'ToolDetail']) {
      expect(schemas[name]?.properties?.categories, name).toMatchObject({ type: 'array' });
      expect(schemas[name]?.required, name).toContain('categories');
    }
  });

  it('llms.txt names the categories endpoint, the search filter, the submit field and the MCP tool', async () => {
    const text = await (await t.request('/llms.txt')).text();
    expect(text).toContain('GET /api/v1/categories');
    expect(text).toContain('GET /api/v1/tools?q=&category=');
    expect(text).toContain('categories?}');
    expect(text).toContain('list_categories');
    expect(text).toContain('search_tools {query?, category?}');
  });
});
