// `tooldir withdraw <site_id>` (docs/cli.md): the real binary as a child process against the real Node server on
// loopback. It asks before it withdraws (a terminal) or wants --yes (a script); the listing's page then answers 410.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { seedOwnedTool } from '../../helpers/owned-tools';
import { simulatedNetwork } from '../../helpers/simulated-network';
import { cliUser, hasScriptCommand, type CliUser } from './cli-process';
import { createAccountWithKey } from './local-server';

const adminToken = 'cli-withdraw-admin-token-0123456789ab';
// Nothing here is crawled: any fetch of the crawler is a violation.
const network = simulatedNetwork({ dns: {} });
let server: NodeServer;
let dataDir: string;
let user: CliUser;
let account: { accountId: string; key: string };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'tooldir-e2e-withdraw-'));
  await cp(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
  server = await startNodeServer(
    { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'silent' },
    { overrides: { crawl: network }, quiet: true },
  );
  account = await createAccountWithKey(server.url, adminToken, 'member');
  user = await cliUser(server.url);
});

afterAll(async () => {
  await server?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  expect(network.violations).toEqual([]);
});

const liveTool = (name: string) => seedOwnedTool(server.deps.db, account.accountId, { name });
const pageStatus = async (slug: string) => (await fetch(`${server.url}/tools/${slug}`)).status;
const withKey = { env: { TOOLDIR_API_KEY: '' } };

describe('tooldir withdraw', () => {
  beforeAll(() => {
    withKey.env.TOOLDIR_API_KEY = account.key;
  });

  it('refuses to run unasked from a script: --yes is required, and nothing changes', async () => {
    const tool = await liveTool(`Script Tool ${crypto.randomUUID().slice(0, 6)}`);
    const run = await user.run(['withdraw', tool.id], withKey);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('add --yes to confirm');
    expect(await pageStatus(tool.slug)).toBe(200);
  });

  it('withdraws with --yes, says so, and the page answers 410; again is the same record', async () => {
    const tool = await liveTool(`Yes Tool ${crypto.randomUUID().slice(0, 6)}`);
    const run = await user.run(['withdraw', tool.id, '--yes'], withKey);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('is no longer listed');
    expect(run.stdout).toMatch(/Withdrawn: +\d{4}-\d\d-\d\d \d\d:\d\d UTC, by its owner/);
    expect(await pageStatus(tool.slug)).toBe(410);
    const again = await user.run(['withdraw', tool.id, '--yes', '--json'], withKey);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      site_id: tool.id,
      status: 'rejected',
      rejection_reason: 'withdrawn by its owner',
    });
  });

  it('explains a refusal (not live) and a malformed id, with their exit codes', async () => {
    const pending = await seedOwnedTool(server.deps.db, account.accountId, {
      name: `Review Tool ${crypto.randomUUID().slice(0, 6)}`,
      status: 'pending_review',
    });
    const refused = await user.run(['withdraw', pending.id, '--yes'], withKey);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Only a live listing can be withdrawn; this submission is pending_review');
    const malformed = await user.run(['withdraw', 'not-an-id', '--yes'], withKey);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('Expected a site_id');
  });

  it.runIf(hasScriptCommand)('on a terminal, asks first: "y" withdraws', async () => {
    expect((await user.run(['login'], { input: `${account.key}\n` })).code).toBe(0);
    const tool = await liveTool(`Terminal Tool ${crypto.randomUUID().slice(0, 6)}`);
    const run = await user.runOnTerminal(['withdraw', tool.id], 'Its page will answer 410. [y/N]', 'y');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('is no longer listed');
    expect(await pageStatus(tool.slug)).toBe(410);
  });
});
