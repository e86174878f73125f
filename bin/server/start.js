#!/usr/bin/env node
// `npm start`: the local server (functions/node.ts) from its prebuilt bundle, rebuilt first when a source
// changed. One process: signals reach the server directly. `npm run start:source` runs the TypeScript
// through tsx instead (stack traces point at the sources; starts about a second slower).
import { pathToFileURL } from 'node:url';
import { buildNodeBundle, bundlePath, isNodeBundleStale } from './node-bundle.js';

if (isNodeBundleStale()) {
  console.error('tooldir: building the server bundle (first start, or a source changed)…');
  await buildNodeBundle();
}
const { main } = await import(pathToFileURL(bundlePath).href);
await main();
