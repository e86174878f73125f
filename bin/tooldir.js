#!/usr/bin/env node
// The `tooldir` command. The CLI is TypeScript run through tsx (a dependency), so plain `node` works
// after `npm install`, from the checkout (`npx tooldir`) and after `npm install -g .`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
