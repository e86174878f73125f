// The real `tooldir` binary against a running local server: submit, status, list, --open, --wait, exit codes.
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliUser, type CliUser } from './cli-process';
import { startLocalServer, type LocalServer } from './local-server';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => {
  await server?.stop();
});

let counter = 0;
/** A tool URL and name nobody has submitted in this server yet. */
function freshTool(): { url: string; name: string } {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}`;
  return { url: `https://tool-${tag}.example/`, name: `CLI Tool ${tag}` };
}

async function loggedIn(tier: 'none' | 'member'): Promise<{ user: CliUser; key: string }> {
  const { key } = await server.account(tier);
  const user = await cliUser(server.url);
  const login = await user.run(['login', '--key', key]);
  expect(login.code).toBe(0);
  return { user, key };
}

describe('tooldir submit / status / list as a member (e2e)', { timeout: 120_000 }, () => {
  it('queues a tool (exit 0), lists it, finds it by id and by URL, and refuses a duplicate (exit 4)', async () => {
    const { user } = await loggedIn('member');
    const tool = freshTool();
    const submit = await user.run([
      'submit',
      tool.url,
      '--name',
      tool.name,
      '--plan',
      'basic',
      '--email',
      'owner@example.com',
    ]);
    expect(submit.code).toBe(0);
    const match = /^Queued (.+) \(site_id ([0-9a-f-]{36})\)\. Quota: used 1 of (\d+) today\.\n$/.exec(submit.stdout);
    expect(match?.[1]).toBe(tool.name);
    const siteId = match?.[2] ?? '';

    const list = await user.run(['list']);
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^STATUS +NAME +URL +SUBMITTED +SITE_ID$/);
    expect(lines[1]).toMatch(/^queued +/);
    expect(lines[1]).toMatch(/ \d{4}-\d\d-\d\d \d\d:\d\d UTC +[0-9a-f-]{36}$/);
    expect(lines[1]).toContain(tool.name);
    expect(lines[1]?.endsWith(siteId)).toBe(true);
    expect(lines.at(-1)).toBe('showing 1–1 of 1');

    const listJson = await user.run(['list', '--json', '--limit', '1', '--offset', '0']);
    expect(JSON.parse(listJson.stdout)).toMatchObject({
      sites: [{ site_id: siteId, name: tool.name }],
      total: 1,
      limit: 1,
      offset: 0,
    });
    const beyond = await user.run(['list', '--offset', '5']);
    expect(beyond.stdout).toMatch(/^No submissions past offset 5\./);

    const byId = await user.run(['status', siteId, '--json']);
    expect(byId.code).toBe(0);
    expect(JSON.parse(byId.stdout)).toMatchObject({
      site_id: siteId,
      name: tool.name,
      is_feature: false,
      is_sponsor: false,
    });

    const byUrl = await user.run(['status', tool.url.replace('https://', 'https://www.')]);
    expect(byUrl.code).toBe(0);
    expect(byUrl.stdout.split('\n')[0]).toBe(`${tool.name} (site_id ${siteId})`);
    expect(byUrl.stdout).toMatch(/Status: {5}\S/);

    const again = await user.run(['submit', tool.url, '--name', `${tool.name} again`]);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^Error: .+\n/);
    expect(again.stderr).toContain(`Existing submission: ${siteId}`);
    const againJson = await user.run(['submit', tool.url, '--name', `${tool.name} again`, '--json']);
    expect(againJson.code).toBe(4);
    expect(JSON.parse(againJson.stdout)).toMatchObject({ error: { code: 'already_submitted', site_id: siteId } });
  });

  it('an argument the API rejects is a usage error (exit 2) with the API message', async () => {
    const { user } = await loggedIn('member');
    const run = await user.run(['submit', freshTool().url, '--name', 'A', '--json']);
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: { code: 'invalid_request' } });
  });
});

describe('tooldir submit without membership (e2e)', { timeout: 120_000 }, () => {
  it('explains the payment (exit 3), opens the link with --open, and finds the unpaid record by URL', async () => {
    const { user } = await loggedIn('none');
    const tool = freshTool();
    const dir = await mkdtemp(join(tmpdir(), 'tooldir-opener-'));
    const opener = join(dir, 'opener.sh');
    const openedFile = join(dir, 'opened.txt');
    await writeFile(opener, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedFile}'\n`);
    await chmod(opener, 0o755);

    const submit = await user.run(['submit', tool.url, '--name', tool.name, '--open'], {
      env: { TOOLDIR_OPENER: opener },
    });
    expect(submit.code).toBe(3);
    expect(submit.stdout).toContain('Payment required: Your account has no active membership');
    const link = /Checkout link: (\S+)/.exec(submit.stdout)?.[1] ?? '';
    expect(link).toMatch(/^https?:\/\//);
    expect(submit.stdout).toMatch(/The link expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./);
    expect(await readFile(openedFile, 'utf8')).toBe(`${link}\n`);

    // The list hides unpaid submissions; status by URL finds it through the CLI's own record.
    const list = await user.run(['list', '--json']);
    expect(JSON.parse(list.stdout)).toMatchObject({ sites: [] });
    const status = await user.run(['status', tool.url]);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('Status:     waiting for payment');
    expect(status.stdout).toContain(`Checkout link: ${link}`);
    const statusJson = await user.run(['status', tool.url, '--json']);
    expect(JSON.parse(statusJson.stdout)).toMatchObject({
      status: 'pending_payment',
      checkout_url: link,
      reason: 'no_membership',
    });

    // Another user without the local record does not see it.
    const stranger = await loggedIn('none');
    const hidden = await stranger.user.run(['status', tool.url]);
    expect(hidden.code).toBe(1);

    const pendingJson = await user.run(['submit', tool.url, '--name', tool.name, '--json']);
    expect(pendingJson.code).toBe(3);
    expect(JSON.parse(pendingJson.stdout)).toMatchObject({ status: 'pending_payment', reason: 'payment_pending' });
  });

  it('the 11th submit within a minute is rate limited (exit 5) and shows Retry-After', async () => {
    const { user, key } = await loggedIn('none');
    for (let index = 0; index < 10; index += 1) {
      const tool = freshTool();
      const response = await fetch(`${server.url}/api/v1/submit-site`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(tool),
      });
      expect(response.status).toBe(402);
    }
    const run = await user.run(['submit', freshTool().url, '--name', 'One Too Many']);
    expect(run.code).toBe(5);
    // One line: the API's message already says when to retry.
    expect(run.stderr).toMatch(
      /^Error: Too many requests: at most 10 submits per minute per account\. Retry in \d+ s\.\n$/,
    );
    const json = await user.run(['submit', freshTool().url, '--name', 'One Too Many', '--json']);
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'rate_limited' } });
  });
});
