#!/usr/bin/env node
// The `tooldir` command: the CLI's prebuilt bundle (bin/cli/cli-bundle.js), made first when a source changed. Where
// it cannot be written (a read-only global install) the TypeScript sources run through tsx (a dependency) instead,
// so plain `node` works after `npm install`, from the checkout (`npx tooldir`) and after `npm install -g .`.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureCliBundle } from './cli-bundle.js';

let bundle;
try {
  bundle = await ensureCliBundle();
} catch {
  bundle = undefined;
}
if (bundle) {
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import('tsx/esm/api');
  // Our own tsconfig, not the one of whatever directory the user runs `tooldir` in.
  register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
  await import('../../src/cli/main.ts');
}
