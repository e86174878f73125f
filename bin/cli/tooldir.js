#!/usr/bin/env node
// The `tooldir` command. The CLI is TypeScript run through tsx (a dependency), so plain `node` works
// after `npm install`, from the checkout (`npx tooldir`) and after `npm install -g .`.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// Our own tsconfig, not the one of whatever directory the user runs `tooldir` in.
register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('../../src/cli/main.ts');
