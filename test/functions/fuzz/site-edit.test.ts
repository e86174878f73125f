// Property-based fuzzing of PATCH /api/v1/sites/{site_id} (docs/pipeline.md "Edits"): any body, any shape, any
// content type, on one's own live tool. Properties: never a 5xx; a refused body files no edit; nothing public
// changes (only an editor's approval does that).
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../../src/db/client';
import type { TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { RUNS, anyField, createFuzzApp, expectNoServerError } from './fuzz-app';

let t: TestApp;
let key: string;
let tool: { id: string; slug: string };
beforeAll(async () => {
  t = await createFuzzApp();
  const member = await t.member('member');
  key = member.key;
  tool = await seedOwnedTool(t.deps.db, member.accountId, { name: 'Fuzzed Edit Tool' });
});
afterAll(() => t.close());

const fields = fc.record(
  {
    name: fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.stringMatching(/^[A-Z][a-z]{2,12}( [A-Z][a-z]{1,10}){0,2}$/),
      anyField,
    ),
    description: fc.oneof(fc.string({ maxLength: 600 }), anyField),
  },
  { requiredKeys: [] },
);
const extraKeys = fc.dictionary(fc.string({ maxLength: 8 }), anyField, { maxKeys: 2 });
const body = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(fields, extraKeys)
      .map(([f, extra]) => ({ text: JSON.stringify({ ...extra, ...f }), type: 'application/json' })),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => ({ text: JSON.stringify(v), type: 'application/json' })) },
  { weight: 1, arbitrary: fc.string().map((text) => ({ text, type: 'application/json' })) },
  { weight: 1, arbitrary: fields.map((f) => ({ text: JSON.stringify(f), type: 'text/plain' })) },
);

const editCount = async () =>
  Number(
    (
      await queryRows<{ n: number }>(
        t.deps.db,
        sql`SELECT count(*)::int AS n FROM site_edits WHERE site_id = ${tool.id}::uuid`,
      )
    )[0]!.n,
  );

describe('fuzz PATCH /api/v1/sites/{site_id}', () => {
  it(`answers ${RUNS / 4} generated bodies without a 5xx; refused bodies file nothing; the public text never changes`, async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(body, async ({ text, type }) => {
        const before = await editCount();
        const res = await t.request(`/api/v1/sites/${tool.id}`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${key}`, 'content-type': type },
          body: text,
        });
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        await expectNoServerError(res, `body ${text.slice(0, 200)}`);
        expect(await editCount()).toBe(res.status === 202 ? before + 1 : before);
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
    expect(seen.get(202)).toBeGreaterThan(0);
    expect(seen.get(400)).toBeGreaterThan(0);
    const publicTool = await (await t.request(`/api/v1/tools/${tool.slug}`)).json();
    expect(publicTool).toMatchObject({ name: 'Fuzzed Edit Tool', description: 'The original description.' });
  });
});
