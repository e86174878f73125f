// Property-based fuzzing of every MCP tool input (search_tools, get_tool, submit_site, get_site_status) as raw
// JSON-RPC `tools/call` posts: any arguments, any shape, with and without a key. Properties: never a 5xx,
// always a well-formed JSON-RPC answer (result or error), and a refused call changes no row. The read tools
// change no row at all; submit_site runs on a `none`-tier key, so an accepted call is a pending payment.
// The tools are fuzzed by two files (mcp-tools-read.test.ts, mcp-tools-write.test.ts), each with its own app from
// useMcpFuzzApp(), so the 8,000 calls run on both test workers instead of making one suite the longest of the run.
import fc from 'fast-check';
import { afterAll, beforeAll, expect } from 'vitest';
import type { TestApp } from '../../helpers/test-app';
import { RUNS, anyField, createFuzzApp, planish, rowWatch, urlish } from './fuzz-app';

export { RUNS };
import { callToolRaw, outcomeLabel } from './mcp-rpc';

let t: TestApp;
let key: string;
let otherKey: string;
let own: { siteId: string; url: string };
let rows: ReturnType<typeof rowWatch>;
/**
 * Gives the calling test file its own app (call it at the file's top level). A function rather than hooks at this
 * module's top level: test files share a worker's module cache, so such hooks would be registered by the first
 * file that imports this module only.
 */
export function useMcpFuzzApp() {
  beforeAll(async () => {
    t = await createFuzzApp();
    key = (await t.member('none')).key;
    otherKey = (await t.member('member')).key;
    const url = `https://own-${Date.now()}.example/`;
    const res = await t.request('/api/v1/submit-site', { method: 'POST', key, json: { name: 'Own Fuzz Tool', url } });
    expect(res.status).toBe(402);
    own = { siteId: ((await res.json()) as { site_id: string }).site_id, url };
    rows = rowWatch(t);
  });
  afterAll(() => t.close());
}

/** Mostly the account's own key; also none, a made-up one and another account's. */
const keyish = fc
  .oneof(
    { weight: 6, arbitrary: fc.constant('own') },
    { weight: 1, arbitrary: fc.constantFrom('none', 'bogus', 'other') },
  )
  .map((which) => ({ own: key, none: undefined, bogus: 'td_live_not_a_real_key_0000', other: otherKey })[which]);

const extraKeys = fc.dictionary(fc.string({ maxLength: 8 }), anyField, { maxKeys: 2 });

/** Arguments: mostly the tool's fields (valid or not) plus stray keys, sometimes any JSON at all. */
function argumentsOf(fields: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(fields, extraKeys).map(([f, extra]) => ({ ...extra, ...f })) },
    { weight: 1, arbitrary: fc.jsonValue() },
  );
}

const uuidish = fc.oneof(
  fc.uuid(),
  fc.constant('00000000-0000-0000-0000-000000000000'),
  fc.string({ maxLength: 120 }),
  anyField,
  fc.constantFrom('\u0000', '00000000-0000-0000-0000-00000000000\u0000'),
);

/** Mostly `good` (so the verbs behind validation are reached too), sometimes anything in the field's place. */
const mostly = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: anyField }, { weight: 1, arbitrary: controlChars });

/** NUL and other control characters, which Postgres text refuses outright (a NUL in a search once gave a 500). */
const controlChars = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', 'Tool\u0000Name', 'https://example.com/\u0000', '\u0007\u001b[0m'),
  fc.string({ unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)), maxLength: 8 }),
);

/** Names the name rules accept, so that generated submissions also get through. */
const plainName = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABC0123.-'), minLength: 1, maxLength: 40 })
  .map((s) => `T${s}x`);

/** fc.emailAddress() draws RFC 5322 oddities ("!#$%"@...) the e-mail rule refuses; these pass it. */
const plainEmail = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9.]{0,15}[a-z0-9]$/), fc.domain())
  .map(([local, domain]) => `${local.replace(/\.\.+/g, '.')}@${domain}`);

const generators: Record<string, () => fc.Arbitrary<unknown>> = {
  search_tools: () =>
    argumentsOf(
      fc.record(
        {
          query: mostly(
            fc.oneof(
              fc.string({ maxLength: 40 }),
              fc.string({ minLength: 190, maxLength: 260 }),
              fc.constantFrom('chat', 'writer', "o'reilly & | !", '%_\\', 'chatgtp'),
            ),
          ),
          limit: mostly(fc.integer({ min: -5, max: 60 })),
          cursor: mostly(fc.oneof(fc.base64String({ maxLength: 60 }), fc.string({ maxLength: 500 }))),
        },
        { requiredKeys: [] },
      ),
    ),
  get_tool: () =>
    argumentsOf(fc.record({ slug: mostly(fc.string({ maxLength: 220 })), site_id: uuidish }, { requiredKeys: [] })),
  submit_site: () =>
    argumentsOf(
      fc.record(
        {
          name: mostly(fc.oneof(plainName, plainName, fc.string({ maxLength: 120 }))),
          url: mostly(
            fc.oneof(
              fc.domain().map((d) => `https://${d}/`),
              urlish,
            ),
          ),
          email: mostly(fc.oneof(plainEmail, plainEmail, fc.emailAddress())),
          plan: fc.oneof(fc.constantFrom('basic', 'featured', 'sponsored'), planish),
        },
        { requiredKeys: ['name', 'url'] },
      ),
    ),
  get_site_status: () =>
    argumentsOf(
      fc.record(
        {
          site_id: fc.oneof(fc.constant(own.siteId), uuidish),
          url: fc.oneof(fc.constant(own.url), urlish, anyField, controlChars),
        },
        { requiredKeys: [] },
      ),
    ),
};

/** Runs RUNS generated calls of one tool; returns how often each outcome came up. */
export async function fuzzTool(name: string, mutates: boolean): Promise<Map<string, number>> {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(generators[name]!(), keyish, async (args, k) => {
      const before = await rows.before();
      const outcome = await callToolRaw(t, name, args, k);
      const label = outcomeLabel(outcome);
      seen.set(label, (seen.get(label) ?? 0) + 1);
      // Arguments that are an object always reach the tool: its answer is a result (maybe isError), never an RPC error.
      if (isObject(args)) expect(outcome.kind, `${name} ${label} ${JSON.stringify(args)}`).not.toBe('rpc_error');
      const after = await rows.after();
      if (!mutates || outcome.kind !== 'ok') expect(after, `${name} ${label} ${JSON.stringify(args)}`).toEqual(before);
    }),
    { numRuns: RUNS },
  );
  return seen;
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
export const count = (seen: Map<string, number>, prefix: string) =>
  [...seen].filter(([label]) => label.startsWith(prefix)).reduce((n, [, c]) => n + c, 0);
