// Idempotency-Key on POST /api/v1/submit-site and /api/v1/sites, on PGlite (docs/idempotency.md).
import { afterAll, beforeAll, describe } from 'vitest';
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
