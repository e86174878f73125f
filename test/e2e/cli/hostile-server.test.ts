// The real `tooldir` binary against a loopback server that answers like a wrong or hostile one (issue 27): a
// redirect in answer to a change is reported, never followed (nothing reaches the redirect's target, body and key
// included), while reads still follow one (fetch leaves the key behind across origins); a checkout link that is
// not https (nor http on this machine) is never handed to the opener. Both servers are recording servers on
// 127.0.0.1, and the opener is a script that writes down what it was given, so nothing leaves this machine.
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliUser, type CliUser } from './cli-process';
import { startRecordingServer, type RecordingServer } from './recording-server';

const SITE_ID = '0b6f9a52-3c1e-4d7a-9f7e-2a4b5c6d7e8f';
const KEY = 'tdk_for_the_recording_server';

let api: RecordingServer;
let elsewhere: RecordingServer;
let user: CliUser;
beforeAll(async () => {
  [api, elsewhere] = await Promise.all([startRecordingServer(), startRecordingServer()]);
  user = await cliUser(api.url);
});
afterAll(async () => {
  await Promise.all([api?.close(), elsewhere?.close()]);
});
beforeEach(() => {
  api.received.length = 0;
  elsewhere.received.length = 0;
  elsewhere.answer(() => ({
    status: 500,
    body: { error: { code: 'internal_error', message: 'the redirect target was reached' } },
  }));
});

const run = (args: string[], env: Record<string, string> = {}) =>
  user.run(args, { env: { TOOLDIR_API_KEY: KEY, ...env } });

describe('a redirect in answer to a change is reported, not followed (e2e)', { timeout: 180_000 }, () => {
  it('submit: 301, 302, 303, 307 and 308 each end the command; the body and the key never reach the target', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      api.received.length = 0;
      api.answer(() => ({ status, headers: { location: `${elsewhere.url}/api/v1/submit-site` } }));
      const result = await run(['submit', 'https://acme.example', '--name', 'Acme Writer']);
      expect(result.code, String(status)).toBe(1);
      expect(result.stderr).toBe(
        `Error: The API at ${api.url} answered POST with HTTP ${status}, a redirect to ${elsewhere.url}; tooldir does not send a change on to another address, so nothing was sent there.\n` +
          "Check the address (--base-url or TOOLDIR_BASE_URL): it must be the service's own origin.\n",
      );
      // One request (a redirect is an answer, not a reason to retry), and nothing at the target.
      expect(api.received.map((r) => [r.method, r.path])).toEqual([['POST', '/api/v1/submit-site']]);
      expect(elsewhere.received).toEqual([]);
    }
  });

  it('retry (POST without a body) and edit (PATCH) are not followed either; --json gives the error body', async () => {
    api.answer(() => ({ status: 307, headers: { location: `${elsewhere.url}/moved` } }));
    const retry = await run(['retry', SITE_ID, '--json']);
    expect(retry.code).toBe(1);
    expect(JSON.parse(retry.stdout)).toEqual({
      error: { code: 'unexpected_redirect', message: expect.stringContaining('answered POST with HTTP 307') },
    });
    api.answer(() => ({ status: 308, headers: { location: 'ms-msdt:/id PCWDiagnostic' } }));
    const edit = await run(['edit', SITE_ID, '--name', 'New Name']);
    expect(edit.code).toBe(1);
    expect(edit.stderr).toContain('answered PATCH with HTTP 308, a redirect to another address;');
    expect(elsewhere.received).toEqual([]);
  });

  it('a read still follows a redirect, and the key stays behind when it leaves the origin', async () => {
    const record = {
      site_id: SITE_ID,
      name: 'Moved',
      url: 'https://moved.example',
      status: 'pending_payment',
      plan: 'basic',
      reason: 'no_membership',
      checkout_url: 'https://checkout.example/pay',
      expires_at: '2099-01-01T00:00:00.000Z',
      submitted_at: '2026-11-21T22:00:00.000Z',
    };
    api.answer(() => ({ status: 302, headers: { location: `${elsewhere.url}/api/v1/sites/${SITE_ID}` } }));
    elsewhere.answer(() => ({ status: 200, body: record }));
    const status = await run(['status', SITE_ID, '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ site_id: SITE_ID, status: 'pending_payment' });
    expect(api.received.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`]);
    expect(elsewhere.received.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ['GET', `/api/v1/sites/${SITE_ID}`, undefined],
    ]);
  });
});

describe('--open hands only https links (or http on this machine) to the browser (e2e)', { timeout: 180_000 }, () => {
  async function recordingOpener(): Promise<{ opener: string; opened: () => Promise<string> }> {
    const dir = await mkdtemp(join(tmpdir(), 'tooldir-opener-'));
    const opener = join(dir, 'open.sh');
    await writeFile(opener, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${join(dir, 'opened')}'\n`);
    await chmod(opener, 0o755);
    return { opener, opened: () => readFile(join(dir, 'opened'), 'utf8').catch(() => '') };
  }
  const pendingWith = (checkoutUrl: string) => ({
    status: 402,
    body: {
      site_id: SITE_ID,
      name: 'Acme Writer',
      url: 'https://acme.example',
      status: 'pending_payment',
      plan: 'basic',
      reason: 'no_membership',
      checkout_url: checkoutUrl,
      expires_at: '2099-01-01T00:00:00.000Z',
      submitted_at: '2026-11-21T22:00:00.000Z',
    },
  });

  it('refuses file:, ms-msdt:, search-ms:, javascript:, data:, http off this machine and links with credentials', async () => {
    const refused: [string, string][] = [
      ['file:///etc/passwd', 'only https addresses (or http on this machine) are opened in a browser'],
      [
        'ms-msdt:/id PCWDiagnostic /skip force',
        'only https addresses (or http on this machine) are opened in a browser',
      ],
      [
        'search-ms:query=invoice&crumb=location:\\\\attacker.example\\share',
        'only https addresses (or http on this machine) are opened in a browser',
      ],
      ['javascript:alert(document.cookie)', 'only https addresses (or http on this machine) are opened in a browser'],
      [
        'data:text/html,<script>alert(1)</script>',
        'only https addresses (or http on this machine) are opened in a browser',
      ],
      ['http://checkout.example/pay', 'only https addresses (or http on this machine) are opened in a browser'],
      ['https://user:secret@checkout.example/pay', 'it carries a user name or password'],
      ['not a link', 'it is not an absolute URL'],
    ];
    for (const [link, why] of refused) {
      const { opener, opened } = await recordingOpener();
      api.answer(() => pendingWith(link));
      const result = await run(['submit', 'https://acme.example', '--name', 'Acme Writer', '--open'], {
        TOOLDIR_OPENER: opener,
      });
      expect(result.code, link).toBe(3);
      expect(result.stderr, link).toContain(
        `Not opening the checkout link: ${why}. Check it before you open it yourself.\n`,
      );
      expect(await opened(), link).toBe('');
    }
  });

  it('opens an https link, and http on this machine (the local checkout)', async () => {
    for (const link of [
      'https://checkout.stripe.com/c/pay/cs_test_a1',
      `${api.url}/checkout/cs_local_1`,
      'http://localhost:8787/checkout/cs_local_2',
    ]) {
      const { opener, opened } = await recordingOpener();
      api.answer(() => pendingWith(link));
      const result = await run(['submit', 'https://acme.example', '--name', 'Acme Writer', '--open'], {
        TOOLDIR_OPENER: opener,
      });
      expect(result.code, link).toBe(3);
      expect(result.stderr, link).toContain('Opening the checkout link in your browser…');
      expect(await opened(), link).toBe(`${link}\n`);
    }
  });
});
