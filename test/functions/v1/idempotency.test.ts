// Idempotency-Key on POST /api/v1/submit-site and /api/v1/sites, on PGlite (docs/idempotency.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidIdempotencyKey } from '../../../src/idempotency/key';
import { uniqueName, uniqueUrl } from '../../helpers/test-app';
import { createIdempotencyHarness, type IdempotencyHarness } from './idempotency-harness';
import { idempotencyScenarios } from './idempotency-scenarios';
import { propertyRuns } from '../../helpers/property-runs';

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
        expect.objectContaining({
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: expect.objectContaining({ maxLength: 255 }),
        }),
      );
      expect(op.responses['422'].description).toContain('idempotency_key_reused');
      expect(op.responses['409'].description).toContain('idempotency_in_progress');
      for (const status of ['201', '402', '409'])
        expect(Object.keys(op.responses[status].headers ?? {})).toContain('Idempotent-Replayed');
    }
  });
});

describe('any Idempotency-Key a client can send', () => {
  it('is either accepted (201, or 402 once the quota is used) or refused with 400 invalid_request, never a 5xx', async () => {
    const { key, accountId } = await h.t.member('memberFeature');
    h.unlimited = true;
    const sendable = (value: string) => {
      try {
        new Headers({ 'idempotency-key': value });
        return true;
      } catch {
        return false;
      }
    };
    let accepted = 0;
    const used = new Set<string>();
    await fc
      .assert(
        fc.asyncProperty(
          fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 })).filter(sendable),
          async (value) => {
            const res = await h.t.request('/api/v1/submit-site', {
              method: 'POST',
              key,
              json: { name: uniqueName('Fuzz'), url: uniqueUrl('fuzz') },
              headers: { 'Idempotency-Key': value },
            });
            // Fetch trims the value's surrounding whitespace, as any HTTP stack does: what arrives is what counts.
            const sent = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
            if (isValidIdempotencyKey(sent) && used.has(sent)) {
              // The generator repeats short values ("}" twice): a key used before with another body is 422.
              expect(res.status).toBe(422);
              expect((await res.json()).error.code).toBe('idempotency_key_reused');
            } else if (isValidIdempotencyKey(sent)) {
              expect([201, 402]).toContain(res.status);
              used.add(sent);
              accepted += 1;
            } else {
              expect(res.status).toBe(400);
              expect((await res.json()).error.code).toBe('invalid_request');
            }
          },
        ),
        { numRuns: propertyRuns(40) },
      )
      .finally(() => (h.unlimited = false));
    const rows = await h.keyRows(accountId);
    expect(rows).toHaveLength(new Set(rows.map((r) => r.key)).size);
    expect(rows.length).toBeLessThanOrEqual(accepted);
  });
});
