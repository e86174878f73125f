// The one place property tests (fast-check) get their run counts. PROPERTY_RUNS sets the count of the main fuzz
// suites (2,000 generated cases per endpoint, the default and what CI runs); every other property test keeps its
// share of that: `propertyRuns(300)` is 300 runs by default and 30 with PROPERTY_RUNS=200. A quick local run:
// `PROPERTY_RUNS=200 npx vitest run test/functions/fuzz`.

/** The default of PROPERTY_RUNS: what `npm test` and CI run. */
export const DEFAULT_PROPERTY_RUNS = 2000;

function configured(): number {
  const raw = process.env.PROPERTY_RUNS;
  if (raw === undefined || raw === '') return DEFAULT_PROPERTY_RUNS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`PROPERTY_RUNS must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** The configured count of the main fuzz suites. */
export const PROPERTY_RUNS = configured();

/** The run count of a property test that runs `atDefault` times when PROPERTY_RUNS has its default (at least 1). */
export function propertyRuns(atDefault: number): number {
  return Math.max(1, Math.round((atDefault * PROPERTY_RUNS) / DEFAULT_PROPERTY_RUNS));
}
