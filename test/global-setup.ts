import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../src/db/node-clients';
import { withRequestedKeyBackfill } from '../src/submissions/requested-key-backfill';
import { ensureNodeBundle } from '../bin/server/node-bundle.js';
import { ensureCliBundle } from '../bin/cli/cli-bundle.js';

/**
 * Builds one migrated PGlite data dir per run; each test file opens a copy (~0.5 s) instead of paying
 * a fresh cold start with migrations (~3 s) itself.
 */
export default async function setup({ provide }: { provide: (key: 'pgliteTemplate', value: string) => void }) {
  // Built once here, so the suites that start `npm start`'s entry in parallel never race to rebuild it.
  await ensureNodeBundle();
  await ensureCliBundle(); // the CLI suites run `tooldir` as child processes, many at once
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-template-'));
  // Opened as the Node entry opens it: a backfill the migrations asked for is served in the template already.
  const opened = await withRequestedKeyBackfill(await openPglite(join(dir, 'pglite')));
  await opened.close();
  provide('pgliteTemplate', join(dir, 'pglite'));
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
