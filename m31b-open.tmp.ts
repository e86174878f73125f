import { openPglite } from './src/db/node-clients';
import { rmSync } from 'node:fs';
const dir = '/tmp/m31b-open'; rmSync(dir, { recursive: true, force: true });
let t = performance.now();
const o = await openPglite(dir); console.log('fresh open+migrate', Math.round(performance.now() - t)); await o.close();
t = performance.now();
const o2 = await openPglite(dir); console.log('reopen', Math.round(performance.now() - t)); await o2.close();
