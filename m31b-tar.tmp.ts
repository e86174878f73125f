import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { rmSync, writeFileSync, readFileSync } from 'node:fs';
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
const src = await PGlite.create('/tmp/m31b-cpu', { extensions: { pg_trgm } });
await src.query('CHECKPOINT');
for (const c of ['gzip', 'none'] as const) {
  const blob = await phase('dump ' + c, () => src.dumpDataDir(c));
  const buf = Buffer.from(await blob.arrayBuffer());
  writeFileSync(`/tmp/m31b-dd.${c}.tar`, buf);
  console.log(c, buf.length);
}
await src.close();
for (const c of ['gzip', 'none'] as const) {
  const dir = `/tmp/m31b-load-${c}`;
  rmSync(dir, { recursive: true, force: true });
  const buf = readFileSync(`/tmp/m31b-dd.${c}.tar`);
  const db = await phase('load ' + c, () =>
    PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir: new Blob([buf]) }),
  );
  console.log((await db.query('select count(*) from sites')).rows);
  await db.close();
  const db2 = await phase('reopen ' + c, () => PGlite.create(dir, { extensions: { pg_trgm } }));
  await db2.close();
}
