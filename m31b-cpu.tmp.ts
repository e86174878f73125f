import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { rmSync } from 'node:fs';
import { applyBaselineToNewDatabase } from './src/db/baseline';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
async function phase<T>(label: string, f: () => Promise<T>): Promise<T> {
  const c = cpu(),
    w = performance.now();
  const r = await f();
  console.log(label, 'cpu', Math.round(cpu() - c), 'wall', Math.round(performance.now() - w));
  return r;
}
const mode = process.argv[2];
const dir = '/tmp/m31b-cpu';
rmSync(dir, { recursive: true, force: true });
const client = await phase('create fs+trgm', () => PGlite.create(dir, { extensions: { pg_trgm } }));
if (mode === 'baseline')
  await phase('baseline', () =>
    applyBaselineToNewDatabase({ query: async (t) => (await client.exec(t)).at(-1)?.rows as never }),
  );
await phase('migrate', () => migrate(drizzle(client), { migrationsFolder: 'drizzle' }));
await client.close();
const c2 = await phase('reopen', () => PGlite.create(dir, { extensions: { pg_trgm } }));
await c2.close();
const c3 = await phase('memory no ext', () => PGlite.create('memory://'));
await c3.close();
