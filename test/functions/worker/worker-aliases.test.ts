// wrangler.toml [alias] replaces modules by the exact text of an import, wherever it is written. Each key must
// reach only the module its shim was written for (a package that starts importing its own './compile.js' would
// otherwise get zod's shim), and each must still be reached (a renamed file would silently bring the cut back).
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStylesheetModule } from '../../../functions/worker/build-assets';
import { writeStripeCoreModule } from '../../../functions/worker/stripe-core-subset';
import { aliasedImports, bundleLikeWorker, wranglerAliases } from '../../helpers/worker-build';

const root = resolve(import.meta.dirname, '../../..');

/** [alias] key → the modules that import it in the Worker (what each shim's comment says it replaces). */
const EXPECTED: Record<string, string[]> = {
  '../locales/index.js': [
    'node_modules/zod/v4/classic/external.js',
    'node_modules/zod/v4/core/index.js',
    'node_modules/zod/v4/mini/external.js',
  ],
  './from-json-schema.js': ['node_modules/zod/v4/classic/external.js'],
  './compile.js': ['node_modules/zod/v4/core/index.js'],
  '../validation/ajv-provider.js': ['node_modules/@modelcontextprotocol/sdk/dist/esm/server/index.js'],
  'zod/v3': ['node_modules/@modelcontextprotocol/sdk/dist/esm/server/zod-compat.js'],
  'zod-to-json-schema': ['node_modules/@modelcontextprotocol/sdk/dist/esm/server/zod-json-schema-compat.js'],
  '@upstash/core-analytics': ['node_modules/@upstash/ratelimit/dist/index.js'],
  './stylesheet': ['functions/pages/shell/assets.ts', 'functions/pages/shell/document.ts'],
  neverthrow: ['node_modules/@upstash/qstash/chunk-*.mjs'],
  './stripe.core.js': ['node_modules/stripe/esm/stripe.esm.worker.js'],
  './openapi-text': ['functions/v1/docs/openapi.ts'],
  '@asteasolutions/zod-to-openapi': ['node_modules/@hono/zod-openapi/dist/index.mjs'],
  '../core/json-schema-processors.js': [
    'node_modules/zod/v4/classic/external.js',
    'node_modules/zod/v4/classic/schemas.js',
    'node_modules/zod/v4/mini/external.js',
  ],
  './json-schema-processors.js': ['node_modules/zod/v4/core/index.js'],
  '../core/to-json-schema.js': ['node_modules/zod/v4/classic/schemas.js'],
  './to-json-schema.js': ['node_modules/zod/v4/core/index.js', 'node_modules/zod/v4/core/json-schema-processors.js'],
  './json-schema-generator.js': ['node_modules/zod/v4/core/index.js'],
  './tool-listing': ['functions/mcp/list-tools.ts'],
};

describe('wrangler.toml [alias]', () => {
  it('replaces exactly the modules its shims were written for, each still imported', async () => {
    // The modules wrangler's [build] command writes before bundling.
    writeStylesheetModule();
    writeStripeCoreModule();
    const seen: Record<string, Set<string>> = {};
    for (const { specifier, importer } of await aliasedImports()) {
      // Bundled packages name their chunks by hash, which changes with every release.
      (seen[specifier] ??= new Set()).add(importer.replace(/\/chunk-[A-Z0-9]+\./, '/chunk-*.'));
    }
    const actual = Object.fromEntries(Object.entries(seen).map(([key, importers]) => [key, [...importers].sort()]));
    expect(Object.keys(wranglerAliases()).sort()).toEqual(Object.keys(EXPECTED).sort());
    expect(actual).toEqual(EXPECTED);
  });
});

describe("zod on the Worker's build (z.compile left out)", () => {
  const dir = join(tmpdir(), `tooldir-worker-zod-${process.pid}`);
  let z: typeof import('zod').z;
  beforeAll(async () => {
    await bundleLikeWorker("export { z } from 'zod';", join(dir, 'zod.mjs'));
    ({ z } = (await import(pathToFileURL(join(dir, 'zod.mjs')).href)) as typeof import('zod'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('parses and reports issues in English as before; its checks still read as properties', () => {
    const schema = z.object({ name: z.string().min(2), tags: z.array(z.string()).max(2) });
    expect(schema.parse({ name: 'Acme', tags: ['a'] })).toEqual({ name: 'Acme', tags: ['a'] });
    const failed = schema.safeParse({ name: 'A', tags: ['a', 'b', 'c'] });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues.map((i) => i.message)).toEqual([
      'Too small: expected string to have >=2 characters',
      'Too big: expected array to have <=2 items',
    ]);
    // zod's own aggregateChecks stays: the schemas' minLength/format/... properties read it.
    expect(z.string().min(2).max(9).minLength).toBe(2);
    expect(z.email().format).toBe('email');
    expect(z.number().int().min(1).minValue).toBe(1);
  });

  it('leaves out JSON Schema conversion, loudly: the [build] command converts the MCP tool listing', () => {
    const schema = z.object({ name: z.string() });
    expect(() => z.toJSONSchema(schema)).toThrow(/not part of the Worker build/);
    expect(() => schema.toJSONSchema()).toThrow(/not part of the Worker build/);
    expect(() => z.core.toJSONSchema(schema)).toThrow(/not part of the Worker build/);
  });

  it('answers z.compile as zod does where code generation is refused: the schema itself, on the runtime parser', () => {
    const schema = z.string();
    expect(z.compile(schema)).toBe(schema);
    expect(() => z.compile(schema, { strict: true })).toThrow(/left out of the Worker bundle/);
    expect(() => z.withParser(schema, () => 'x')).toThrow(/left out of the Worker bundle/);
  });

  it("exports every name of zod's compile.js (an upgrade that adds one fails here, not in production)", () => {
    const names = (file: string) =>
      [...readFileSync(file, 'utf8').matchAll(/^export (?:const|class|function) (\w+)/gm)].map((m) => m[1]).sort();
    const shim = names(join(root, 'functions/worker/zod-compile-unused.ts'));
    expect(shim).toEqual(names(join(root, 'node_modules/zod/v4/core/compile.js')));
  });

  it("exports every name of zod's JSON Schema modules (an upgrade that adds one fails here, not in production)", () => {
    const names = (...files: string[]) =>
      files
        .flatMap((file) => [
          ...readFileSync(join(root, file), 'utf8').matchAll(/^export (?:const|class|function) (\w+)/gm),
          ...readFileSync(join(root, file), 'utf8').matchAll(/^export \{ \w+ as (\w+) \};/gm),
        ])
        .map((m) => m[1])
        .sort();
    expect(names('functions/worker/zod-json-schema-unused.ts')).toEqual(
      names('node_modules/zod/v4/core/json-schema-processors.js').filter((name) => name !== 'aggregateChecks'),
    );
    expect(names('functions/worker/zod-json-schema-core-unused.ts')).toEqual(
      names('node_modules/zod/v4/core/to-json-schema.js', 'node_modules/zod/v4/core/json-schema-generator.js'),
    );
  });
});

describe("@hono/zod-openapi on the Worker's build (zod-to-openapi's document code left out)", () => {
  const dir = join(tmpdir(), `tooldir-worker-hono-openapi-${process.pid}`);
  let hono: typeof import('@hono/zod-openapi');
  beforeAll(async () => {
    await bundleLikeWorker("export * from '@hono/zod-openapi';", join(dir, 'hono-openapi.mjs'));
    hono = (await import(pathToFileURL(join(dir, 'hono-openapi.mjs')).href)) as typeof import('@hono/zod-openapi');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('validates routes whose schemas carry .openapi() metadata as before, and refuses to generate a document', async () => {
    const { OpenAPIHono, createRoute, z } = hono;
    const Body = z
      .object({ name: z.string().min(2).openapi({ example: 'Acme' }) })
      .openapi('Body')
      .extend({ tags: z.array(z.string()).max(2).optional().openapi({ description: 'tags' }) });
    const app = new OpenAPIHono();
    app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', { type: 'http', scheme: 'bearer' });
    app.openapi(
      createRoute({
        method: 'post',
        path: '/things/{id}',
        request: {
          params: z.object({
            id: z
              .string()
              .uuid()
              .openapi({ param: { name: 'id', in: 'path' } }),
          }),
          body: { content: { 'application/json': { schema: Body } } },
        },
        responses: { 200: { description: 'ok', content: { 'application/json': { schema: Body } } } },
      }),
      (c) => c.json(c.req.valid('json'), 200),
    );
    const post = (id: string, body: unknown) =>
      app.request(`/things/${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const id = crypto.randomUUID();
    const ok = await post(id, { name: 'Acme', tags: ['a'], extra: 1 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ name: 'Acme', tags: ['a'] });
    expect((await post(id, { name: 'A' })).status).toBe(400);
    expect((await post(id, { name: 'Acme', tags: ['a', 'b', 'c'] })).status).toBe(400);
    expect((await post('not-a-uuid', { name: 'Acme' })).status).toBe(400);
    expect(app.openAPIRegistry.definitions.map((d) => d.type)).toEqual(['component', 'route']);
    expect(() => app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } })).toThrow(
      /not part of the Worker build/,
    );
  });
});
