import type { ProvidedContext } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../src/db/node-clients';
import { withRequestedKeyBackfill } from '../src/submissions/requested-key-backfill';
import { ensureNodeBundle } from '../bin/server/node-bundle.js';
import { ensureCliBundle } from '../bin/cli/cli-bundle.js';
import { startChromiumBroker } from './helpers/services/chromium-broker';

/**
 * Builds one migrated PGlite data dir per run; each test file opens a copy (~0.5 s) instead of paying
 * a fresh cold start with migrations (~3 s) itself.
 */
export default async function setup({
  provide,
}: {
  provide: <K extends keyof ProvidedContext>(key: K, value: ProvidedContext[K]) => void;
}) {
  // Built once here, so the suites that start `npm start`'s entry in parallel never race to rebuild it.
  await ensureNodeBundle();
  await ensureCliBundle(); // the CLI suites run `tooldir` as child processes, many at once
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-template-'));
  // Opened as the Node entry opens it: a backfill the migrations asked for is served in the template already.
  const opened = await withRequestedKeyBackfill(await openPglite(join(dir, 'pglite')));
  await opened.close();
  provide('pgliteTemplate', join(dir, 'pglite'));
  // The browser suites share one Chromium, launched when the first of them asks (helpers/services/chromium.ts).
  const broker = await startChromiumBroker();
  provide('chromiumBroker', broker.url);
  return async () => {
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    /** Where suites get the run's shared Chromium (test/helpers/services/chromium-broker.ts). */
    chromiumBroker: string;
  }
}
