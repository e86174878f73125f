// `tooldir submit` retries (docs/cli.md): only without an answer or while the first attempt is in progress,
// at most 3 sends, always with the invocation's one Idempotency-Key.
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/program';
import { fakeWorld, siteId, type FakeAnswer } from './fake-context';

const queued: FakeAnswer = {
  status: 201,
  body: { site_id: siteId, status: 'queued', via: 'membership', quota: { used_today: 1, daily_limit: 5 } },
};
const env = { TOOLDIR_API_KEY: 'td_test' };
const submitArgs = ['submit', 'acme.example', '--name', 'Acme AI'];
const keysOf = (world: Awaited<ReturnType<typeof fakeWorld>>) =>
  world.requests.map((r) => r.headers.get('idempotency-key'));

describe('tooldir submit retries', () => {
  it('after a connection failure, sends again with the same key and prints the answer', async () => {
    let calls = 0;
    const world = await fakeWorld(
      () => {
        calls += 1;
        if (calls === 1)
          throw new TypeError('fetch failed', {
            cause: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
          });
        return queued;
      },
      { env },
    );
    expect(await runCli(submitArgs, world.ctx)).toBe(0);
    const keys = keysOf(world);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(world.sleeps).toEqual([1000]);
    expect(world.stderr.text).toContain('attempt 2 of 3, same Idempotency-Key');
    expect(world.stdout.text).toContain(`site_id ${siteId}`);
  });

  it('waits out 409 idempotency_in_progress with the same key', async () => {
    let calls = 0;
    const world = await fakeWorld(
      () => {
        calls += 1;
        if (calls === 1)
          return {
            status: 409,
            body: { error: { code: 'idempotency_in_progress', message: 'still running' } },
            headers: { 'retry-after': '1' },
          };
        return queued;
      },
      { env },
    );
    expect(await runCli(submitArgs, world.ctx)).toBe(0);
    expect(new Set(keysOf(world)).size).toBe(1);
    expect(world.requests).toHaveLength(2);
  });

  it('does not retry a real answer (500, 400, 409 already_submitted), and stops after 3 sends', async () => {
    for (const answer of [
      { status: 500, body: { error: { code: 'internal_error', message: 'oops' } } },
      { status: 400, body: { error: { code: 'invalid_request', message: 'name is required' } } },
      { status: 409, body: { error: { code: 'already_submitted', message: 'taken' } } },
    ]) {
      const world = await fakeWorld(() => answer, { env });
      expect(await runCli(submitArgs, world.ctx)).not.toBe(0);
      expect(world.requests, String(answer.status)).toHaveLength(1);
    }
    const down = await fakeWorld(
      () => {
        throw new TypeError('fetch failed');
      },
      { env },
    );
    expect(await runCli(submitArgs, down.ctx)).not.toBe(0);
    expect(down.requests).toHaveLength(3);
    expect(new Set(keysOf(down)).size).toBe(1);
    expect(down.sleeps).toEqual([1000, 2000]);
    expect(down.stderr.text).toContain('Could not reach the tooldir API');
  });

  it('a submit still in progress after 3 sends exits 1 with a hint, not 4 (already submitted)', async () => {
    const world = await fakeWorld(
      () => ({
        status: 409,
        body: { error: { code: 'idempotency_in_progress', message: 'still running' } },
        headers: { 'retry-after': '1' },
      }),
      { env },
    );
    expect(await runCli(submitArgs, world.ctx)).toBe(1);
    expect(world.requests).toHaveLength(3);
    expect(world.stderr.text).toContain('still working on this submit');
  });

  it('two invocations send two different keys', async () => {
    const world = await fakeWorld(() => queued, { env });
    await runCli(submitArgs, world.ctx);
    await runCli(submitArgs, world.ctx);
    const keys = keysOf(world);
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
