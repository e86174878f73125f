#!/usr/bin/env node
// `npm start`: the local server (functions/node.ts) from its prebuilt bundle, rebuilt first when a source
// changed. One process: signals reach the server directly. `npm run start:source` runs the TypeScript
// through tsx instead (stack traces point at the sources; starts about a second slower).
import { pathToFileURL } from 'node:url';
import { ensureNodeBundle } from './node-bundle.js';

const bundle = await ensureNodeBundle();
const { main } = await import(pathToFileURL(bundle).href);
await main();
