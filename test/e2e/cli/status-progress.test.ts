// `tooldir status` (the real binary, a child process) shows a submission's queue position and history in
// words (docs/submission-progress.md). The server runs in-process on a fresh PGlite copy with a queue that
// only records jobs, so the three submissions stay queued in a known order.
import { sql } from 'drizzle-orm';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { recordingQueue } from '../../helpers/stripe/payments-fixture';
import { cliUser, type CliUser } from './cli-process';
import { createAccountWithKey } from './local-server';

const adminToken = 'cli-progress-admin-token-0123456789';

let server: NodeServer;
let dataDir: string;
let user: CliUser;
let key: string;
const urls: string[] = [];
const ids: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tooldir-e2e-progress-'));
  await cp(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  server = await startNodeServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent' },
    { overrides: { queue: recordingQueue() }, quiet: true, localSweeper: false },
  );
  ({ key } = await createAccountWithKey(server.url, adminToken, 'member'));
  user = await cliUser(server.url);
  for (let i = 1; i <= 3; i++) {
    const url = `https://progress-${i}-${crypto.randomUUID().slice(0, 8)}.example/`;
    const res = await fetch(`${server.url}/api/v1/submit-site`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Progress CLI ${i} ${crypto.randomUUID().slice(0, 4)}`, url }),
    });
    expect(res.status).toBe(201);
    urls.push(url);
    ids.push(((await res.json()) as { site_id: string }).site_id);
  }
});

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('tooldir status: queue position and history (e2e)', { timeout: 120_000 }, () => {
  it('the third queued submission is 3rd in line for crawling; no estimate without pace data', async () => {
    const run = await user.run(['status', ids[2]!], { env: { TOOLDIR_API_KEY: key } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}Queue: +3rd in line for crawling$/m);
    expect(run.stdout).not.toContain('expected around');
    expect(run.stdout).toMatch(/^ {2}History:\n {4}\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}queued for crawling$/m);
  });

  it('by URL too (the list finds it, the detail read tells where it waits), with an estimate once the stage has a pace', async () => {
    await server.deps.db.execute(
      sql`INSERT INTO site_history (site_id, from_status, to_status, at)
          SELECT gen_random_uuid(), 'crawling', 'pending_review', now() - make_interval(mins => m) FROM unnest(ARRAY[30, 20, 10]) AS m`,
    );
    const run = await user.run(['status', urls[0]!], { env: { TOOLDIR_API_KEY: key } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^ {2}Queue: +1st in line for crawling, expected around \d{4}-\d\d-\d\d \d\d:\d\d UTC$/m,
    );

    const json = await user.run(['status', ids[1]!, '--json'], { env: { TOOLDIR_API_KEY: key } });
    expect(json.code, json.stderr).toBe(0);
    const body = JSON.parse(json.stdout) as {
      history: Array<{ status: string }>;
      queue: { stage: string; position: number; estimated_at?: string };
    };
    expect(body.history.map((step) => step.status)).toEqual(['queued']);
    expect(body.queue).toMatchObject({ stage: 'crawl', position: 2 });
    expect(body.queue.estimated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("shows a live tool's edit waiting for review, then the editor's decision with its reason", async () => {
    const siteId = ids[2]!;
    await server.deps.db.execute(
      sql`UPDATE sites SET status = 'live', slug = ${`progress-${siteId.slice(0, 8)}`}, live_url = ${`${server.url}/tools/progress-${siteId.slice(0, 8)}`},
          published_at = now() WHERE id = ${siteId}::uuid`,
    );
    const filed = await fetch(`${server.url}/api/v1/sites/${siteId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Progress Renamed ${crypto.randomUUID().slice(0, 4)}` }),
    });
    expect(filed.status).toBe(202);
    const { pending_edit } = (await filed.json()) as { pending_edit: { edit_id: string; name: string } };
    let run = await user.run(['status', siteId], { env: { TOOLDIR_API_KEY: key } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`  Edit:       waiting for review since `);
    expect(run.stdout).toMatch(
      new RegExp(
        `^ {2}Edit: +waiting for review since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: name "${pending_edit.name}"$`,
        'm',
      ),
    );
    expect(run.stdout).not.toContain('Last edit:');

    const decided = await fetch(`${server.url}/api/v1/admin/edits/${pending_edit.edit_id}/review`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'reject', reason: 'Keep the name people know' }),
    });
    expect(decided.status).toBe(200);
    run = await user.run(['status', siteId], { env: { TOOLDIR_API_KEY: key } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('  Edit:');
    expect(run.stdout).toMatch(/^ {2}Last edit: +rejected \d{4}-\d\d-\d\d \d\d:\d\d UTC: Keep the name people know$/m);
  });
});
