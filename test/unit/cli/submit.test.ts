// `tooldir submit` in-process against a scripted API: outcomes in words and JSON, exit codes, --open, --wait.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program';
import { fakeWorld, pendingRecord, siteId, siteRecord, type FakeAnswer } from './fake-context';

const queued: FakeAnswer = {
  status: 201,
  body: { site_id: siteId, status: 'queued', via: 'membership', quota: { used_today: 2, daily_limit: 5 } },
};
const key = { TOOLDIR_API_KEY: 'td_test' };

describe('tooldir submit', () => {
  it('queues a tool and says so in words (exit 0)', async () => {
    const world = await fakeWorld(() => queued, { env: key });
    const code = await runCli(
      ['submit', 'acme.example', '--name', 'Acme AI', '--plan', 'featured', '--email', 'a@b.example'],
      world.ctx,
    );
    expect(code).toBe(0);
    expect(world.stdout.text).toBe(`Queued Acme AI (site_id ${siteId}). Quota: used 2 of 5 today.\n`);
    expect(world.requests).toHaveLength(1);
    const [request] = world.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/v1/submit-site');
    expect(request?.headers.get('authorization')).toBe('Bearer td_test');
    expect(request?.body).toEqual({
      name: 'Acme AI',
      url: 'https://acme.example',
      email: 'a@b.example',
      plan: 'featured',
    });
  });

  it('prints the 201 body under --json and records the site_id', async () => {
    const world = await fakeWorld(() => queued, { env: key });
    const code = await runCli(['--json', 'submit', 'https://acme.example', '--name', 'Acme AI'], world.ctx);
    expect(code).toBe(0);
    expect(JSON.parse(world.stdout.text)).toEqual(queued.body);
    const config = JSON.parse(await readFile(join(world.home, '.config', 'tooldir', 'config.json'), 'utf8'));
    expect(config.submissions).toEqual([
      expect.objectContaining({ site_id: siteId, url: 'https://acme.example', base_url: 'http://127.0.0.1:8787' }),
    ]);
    expect(config.api_key).toBeUndefined();
  });

  it('explains a 402 with the checkout link and exits 3; --open hands the link to the opener', async () => {
    const world = await fakeWorld(() => ({ status: 402, body: pendingRecord() }), { env: key });
    const code = await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--open'], world.ctx);
    expect(code).toBe(3);
    expect(world.stdout.text).toContain('Your account has no active membership');
    expect(world.stdout.text).toContain('Checkout link: http://127.0.0.1:8787/checkout/cs_1');
    expect(world.stdout.text).toContain('expires at 2026-11-22 22:00 UTC.');
    expect(world.opened).toEqual(['http://127.0.0.1:8787/checkout/cs_1']);
  });

  it('does not open anything without --open, and a failing opener does not fail the command', async () => {
    const world = await fakeWorld(() => ({ status: 402, body: pendingRecord({ reason: 'quota_exceeded' }) }), {
      env: key,
    });
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI'], world.ctx)).toBe(3);
    expect(world.opened).toEqual([]);
    world.ctx.openUrl = async () => {
      throw new Error('no display');
    };
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--open'], world.ctx)).toBe(3);
    expect(world.stderr.text).toContain('Could not open a browser (no display)');
  });

  it('maps 409 to exit 4 with the message and the existing site_id, also as JSON', async () => {
    const body = { error: { code: 'already_submitted', message: 'This URL was already submitted', site_id: siteId } };
    const world = await fakeWorld(() => ({ status: 409, body }), { env: key });
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI'], world.ctx)).toBe(4);
    expect(world.stderr.text).toBe(`Error: This URL was already submitted\nExisting submission: ${siteId}\n`);
    expect(world.stdout.text).toBe('');
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--json'], world.ctx)).toBe(4);
    expect(JSON.parse(world.stdout.text)).toEqual(body);
  });

  it('maps 429 to exit 5 and shows Retry-After in the one line of the message', async () => {
    const body = { error: { code: 'rate_limited', message: 'Too many requests' } };
    const world = await fakeWorld(() => ({ status: 429, body, headers: { 'retry-after': '17' } }), { env: key });
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI'], world.ctx)).toBe(5);
    expect(world.stderr.text).toBe('Error: Too many requests. Retry in 17 s.\n');
  });

  it('refuses a missing --name or an unknown plan as usage errors before calling the API (exit 2)', async () => {
    const world = await fakeWorld(() => queued, { env: key });
    expect(await runCli(['submit', 'https://acme.example'], world.ctx)).toBe(2);
    expect(await runCli(['submit', 'https://acme.example', '--name', 'A', '--plan', 'gold'], world.ctx)).toBe(2);
    expect(await runCli(['submit', 'ftp://acme.example', '--name', 'Acme'], world.ctx)).toBe(2);
    expect(world.requests).toEqual([]);
    expect(world.stderr.text).toContain("required option '--name <name>' not specified");
  });

  it('--wait follows the submission to live and prints the live_url (plain lines without a TTY)', async () => {
    const states = ['queued', 'crawling', 'crawling', 'pending_review', 'live'];
    const world = await fakeWorld(
      (request) => {
        if (request.method === 'POST') return queued;
        const status = states.shift() ?? 'live';
        return {
          status: 200,
          body: siteRecord(status, status === 'live' ? { live_url: 'http://127.0.0.1:8787/tools/acme-ai' } : {}),
        };
      },
      { env: key },
    );
    const code = await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait'], world.ctx);
    expect(code).toBe(0);
    expect(world.stdout.text.trim().split('\n').at(-1)).toBe('Acme AI is live: http://127.0.0.1:8787/tools/acme-ai');
    expect(world.stderr.text.split('\n').filter(Boolean)).toEqual([
      'queued for crawling',
      'being crawled',
      'crawled, waiting for editorial review',
    ]);
    expect(world.sleeps).toEqual([2000, 2000, 2000, 2000]);
  });

  it('--wait --json prints only the final record, and rejected exits 1', async () => {
    const world = await fakeWorld(
      (request) => (request.method === 'POST' ? queued : { status: 200, body: siteRecord('rejected') }),
      { env: key },
    );
    const code = await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait', '--json'], world.ctx);
    expect(code).toBe(1);
    expect(JSON.parse(world.stdout.text)).toEqual(siteRecord('rejected'));
    expect(world.stderr.text).toBe('');
  });

  it('--wait on a payment follows it until paid and live, with a spinner on a TTY', async () => {
    const answers = [
      pendingRecord(),
      pendingRecord(),
      siteRecord('queued'),
      siteRecord('live', { live_url: 'http://127.0.0.1:8787/tools/acme-ai' }),
    ];
    const world = await fakeWorld(
      (request) =>
        request.method === 'POST' ? { status: 402, body: pendingRecord() } : { status: 200, body: answers.shift() },
      { env: key, tty: true },
    );
    const code = await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait'], world.ctx);
    expect(code).toBe(0);
    expect(world.stderr.text).toContain('\r\u001b[2K⠋ waiting for payment (checkout link above) · 0s');
    expect(world.stderr.text).toContain('\r\u001b[2K⠙ waiting for payment (checkout link above) · 0s');
    expect(world.stderr.text).toContain('waiting for payment (checkout link above) · 2s');
    expect(world.stderr.text).toContain(' queued for crawling · 4s');
    expect(world.stderr.text.endsWith('\r\u001b[2K')).toBe(true);
    expect(world.stdout.text.trim().split('\n').at(-1)).toBe('Acme AI is live: http://127.0.0.1:8787/tools/acme-ai');
  });

  it('--wait stops with exit 3 when the unpaid link has expired', async () => {
    const expired = pendingRecord({ expires_at: '2026-11-21T22:00:03.000Z' });
    const world = await fakeWorld(
      (request) => (request.method === 'POST' ? { status: 402, body: expired } : { status: 200, body: expired }),
      { env: key },
    );
    const code = await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait'], world.ctx);
    expect(code).toBe(3);
    expect(world.stdout.text).toContain('expired before payment');
    expect(world.sleeps).toEqual([2000, 2000]);
  });

  it('--wait rides out a passing network failure', async () => {
    let reads = 0;
    const world = await fakeWorld(
      (request) => {
        if (request.method === 'POST') return queued;
        reads += 1;
        if (reads === 1) throw new TypeError('fetch failed');
        return { status: 200, body: siteRecord('crawl_failed') };
      },
      { env: key },
    );
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait'], world.ctx)).toBe(1);
    expect(world.stderr.text).toContain('Could not reach the tooldir API');
    expect(world.stdout.text).toContain('The crawl of Acme AI failed');
  });

  it('--wait retries a 503 or 429 but stops at once on a 404', async () => {
    const reads = [
      { status: 503, body: { error: { code: 'service_unavailable', message: 'Try later' } } },
      { status: 429, body: { error: { code: 'rate_limited', message: 'Slow down' } }, headers: { 'retry-after': '3' } },
      { status: 200, body: siteRecord('live', { live_url: 'http://127.0.0.1:8787/tools/acme-ai' }) },
    ];
    const world = await fakeWorld(
      (request) => (request.method === 'POST' ? queued : (reads.shift() ?? { status: 500 })),
      { env: key },
    );
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait'], world.ctx)).toBe(0);
    expect(world.sleeps).toEqual([4000, 8000]);

    const gone = await fakeWorld(
      (request) =>
        request.method === 'POST'
          ? queued
          : { status: 404, body: { error: { code: 'not_found', message: 'Submission not found' } } },
      { env: key },
    );
    expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI', '--wait'], gone.ctx)).toBe(1);
    expect(gone.sleeps).toEqual([]);
    expect(gone.stderr.text).toContain('Error: Submission not found');
  });
});
