import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer';

/**
 * Test files that need a module graph of their own (test/unit/test-layout.test.ts keeps this list true): a
 * `vi.mock` swaps a module for the file that asks, which a module graph shared with other files cannot do.
 */
export const OWN_MODULES = ['test/functions/worker/stripe-core-subset.test.ts'];

// One PGlite database is shared per test file (a cold start costs ~3 s); tests isolate by fresh accounts.
// Every other file runs in a module graph its worker keeps from file to file (`isolate: false`): each file used to
// import and evaluate the whole app again, 600 s of the run summed over the files. So a helper module's top level
// runs once per worker: hooks a file needs are registered by a function it calls (test/unit/test-layout.test.ts).
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Suites that wait on processes start first, so the run does not end on one of them (test/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared-modules',
          include: ['test/**/*.test.ts'],
          exclude: ['test/bench/**', 'node_modules/**', ...OWN_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own-modules', include: OWN_MODULES } },
    ],
  },
});
