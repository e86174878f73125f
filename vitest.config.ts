import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/sequencer';

// One PGlite database is shared per test file (a cold start costs ~3 s); tests isolate by fresh accounts.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    exclude: ['test/bench/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // Suites that wait on processes start first, so the run does not end on one of them (test/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
  },
});
