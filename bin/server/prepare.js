#!/usr/bin/env node
// npm's postinstall: makes, once per checkout, what a newcomer's first `npm start` would otherwise wait for: the
// server bundle (bin/server/node-bundle.js), the `tooldir` command's bundle (bin/cli/cli-bundle.js) and the seed of a new PGlite database (src/db/pglite-seed.ts), so that the
// first start answers in a few seconds (docs/bench.md "Cold start"). Never fails an install: without them
// `npm start` makes both itself, only slower.
import { pathToFileURL } from 'node:url';
import { ensureCliBundle } from '../cli/cli-bundle.js';
import { ensureNodeBundle } from './node-bundle.js';

try {
  const started = performance.now();
  const bundle = await ensureNodeBundle();
  await ensureCliBundle();
  const { preparePgliteSeed } = await import(pathToFileURL(bundle).href);
  const seed = await preparePgliteSeed();
  console.error(
    `tooldir: server bundle and database seed ${seed === 'made' ? 'made' : 'ready'} (${Math.round(performance.now() - started)} ms)`,
  );
} catch (error) {
  console.error(
    `tooldir: could not prepare the first start (npm start will): ${error instanceof Error ? error.message : String(error)}`,
  );
}
