// Outside local mode (DATABASE_URL set) the service does not start without SITE_ORIGIN, ADMIN_TOKEN or a mail transport,
// and says which variable is missing: the Node entry (startNodeServer and `npm start`) and the Worker entry.
// The database URL points at a closed loopback port: configuration fails before anything connects.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startNodeServer } from '../../functions/node';
import worker, { workerConfig } from '../../functions/worker';
import { ConfigError, type Env } from '../../src/config';

const production = (env: Env = {}): Env => ({
  DATABASE_URL: 'postgres://unused@127.0.0.1:1/db',
  ADMIN_TOKEN: 'startup-admin-token-0123456789abcdef',
  SITE_ORIGIN: 'https://tooldir.example',
  MAIL_API_URL: 'http://127.0.0.1:1/send',
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  ...env,
});

const MISSING_ORIGIN = /SITE_ORIGIN is required when DATABASE_URL is set/;
const MISSING_MAIL = /MAIL_API_URL is required when DATABASE_URL is set.*MAIL_TRANSPORT=outbox/;
const MISSING_ADMIN_TOKEN = /ADMIN_TOKEN is required when DATABASE_URL is set/;

describe('Node entry: startNodeServer', () => {
  it('refuses to start without SITE_ORIGIN, naming it', async () => {
    const started = startNodeServer(production({ SITE_ORIGIN: undefined }));
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(MISSING_ORIGIN);
  });

  it('refuses to start without a mail API, naming MAIL_API_URL and the explicit MAIL_TRANSPORT=outbox', async () => {
    await expect(startNodeServer(production({ MAIL_API_URL: undefined }))).rejects.toThrow(MISSING_MAIL);
  });

  it('refuses to start without ADMIN_TOKEN, naming it (the sign-in code hashes are keyed with it)', async () => {
    await expect(startNodeServer(production({ ADMIN_TOKEN: undefined }))).rejects.toThrow(MISSING_ADMIN_TOKEN);
  });
});

/** Runs `npm start` with only the variables given (plus PATH and HOME), and collects its exit. */
function npmStart(env: Env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['start', '--silent'], {
      cwd: join(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('Node entry: npm start', () => {
  it('exits 2 with the message naming SITE_ORIGIN, and never serves', async () => {
    const run = await npmStart(production({ SITE_ORIGIN: undefined }));
    expect(run.code).toBe(2); // main() exits 2 on a ConfigError; npm passes the code on
    expect(run.stderr).toMatch(MISSING_ORIGIN);
    expect(run.stdout).not.toContain('tooldir is running');
  }, 60_000);

  it('exits 2 with the message naming ADMIN_TOKEN when it is missing', async () => {
    const run = await npmStart(production({ ADMIN_TOKEN: undefined }));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(MISSING_ADMIN_TOKEN);
    expect(run.stdout).not.toContain('tooldir is running');
  }, 60_000);

  it('exits 2 with the message naming MAIL_API_URL when mail is not configured', async () => {
    const run = await npmStart(production({ MAIL_API_URL: undefined }));
    expect(run.code).toBe(2); // main() exits 2 on a ConfigError; npm passes the code on
    expect(run.stderr).toMatch(MISSING_MAIL);
    expect(run.stdout).not.toContain('tooldir is running');
  }, 60_000);
});

describe('Worker entry (functions/worker.ts)', () => {
  afterEach(() => vi.restoreAllMocks());
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

  it.each([
    ['SITE_ORIGIN', production({ SITE_ORIGIN: undefined }), MISSING_ORIGIN],
    ['a mail transport', production({ MAIL_API_URL: undefined }), MISSING_MAIL],
    ['ADMIN_TOKEN', production({ ADMIN_TOKEN: undefined }), MISSING_ADMIN_TOKEN],
    ['the R2 bucket binding MEDIA', production(), /the R2 bucket binding MEDIA is required on Workers/],
  ])(
    'without %s answers 503 in the error shape and logs the message naming the variable',
    async (_what, env, message) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
      const res = await worker.fetch(new Request('https://tooldir.example/llms.txt'), env, ctx);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({
        error: { code: 'service_unavailable', message: 'The service is not configured yet.' },
      });
      expect(logged.mock.calls.map((args) => String(args[0]))).toEqual([expect.stringMatching(message)]);
    },
  );

  it('accepts an explicit MAIL_TRANSPORT=outbox (documented as unsafe for production)', () => {
    expect(workerConfig(production({ MAIL_API_URL: undefined, MAIL_TRANSPORT: 'outbox' })).mail).toEqual({
      transport: 'outbox',
    });
  });
});
