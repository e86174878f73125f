// Idempotency-Key on POST /api/v1/submit-site and /api/v1/sites, on PGlite (docs/idempotency.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdempotencyHarness, type IdempotencyHarness } from './idempotency-harness';
import { idempotencyScenarios } from './idempotency-scenarios';

let h: IdempotencyHarness;
beforeAll(async () => {
  h = await createIdempotencyHarness();
});
afterAll(() => h?.t.close());

describe('Idempotency-Key on submit (PGlite)', () => {
  idempotencyScenarios(() => h);
});

describe('openapi.json documents Idempotency-Key', () => {
  it('on both submit paths: the header parameter, 409 and 422, and the Idempotent-Replayed response header', async () => {
    const doc = await (await h.t.request('/api/v1/openapi.json')).json();
    for (const path of ['/api/v1/submit-site', '/api/v1/sites']) {
      const op = doc.paths[path].post;
      expect(op.parameters).toContainEqual(
        expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false, schema: expect.objectContaining({ maxLength: 255 }) }),
      );
      expect(op.responses['422'].description).toContain('idempotency_key_reused');
      expect(op.responses['409'].description).toContain('idempotency_in_progress');
      for (const status of ['201', '402', '409']) expect(Object.keys(op.responses[status].headers ?? {})).toContain('Idempotent-Replayed');
    }
  });
});
