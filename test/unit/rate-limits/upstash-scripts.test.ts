// The limiter's two Redis commands over Upstash's REST API: what is sent, and how answers and refusals come back
// (a NOSCRIPT error must surface as an error whose text says so: @upstash/ratelimit then sends EVAL instead).
// The whole path against a real redis-server: test/e2e/rate-limit-upstash.test.ts.
import { describe, expect, it } from 'vitest';
import { createUpstashScriptClient } from '../../../src/adapters/ratelimit/upstash-scripts';

function recording(answer: (body: unknown) => Response) {
  const sent: Array<{ url: string; init: RequestInit; body: unknown }> = [];
  const fetch = (async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init.body)) as unknown;
    sent.push({ url, init, body });
    return answer(body);
  }) as unknown as typeof globalThis.fetch;
  return { sent, fetch };
}

describe('createUpstashScriptClient', () => {
  it('sends EVALSHA and EVAL as one JSON command each, with the bearer token, and returns the result', async () => {
    const net = recording(() => Response.json({ result: [9, 1700000000000] }));
    const client = createUpstashScriptClient({ url: 'https://eu1-x.upstash.io', token: 'tok', fetch: net.fetch });
    expect(await client.evalsha('abc123', ['rl:k1', 'rl:k2'], [10, 60000, 1])).toEqual([9, 1700000000000]);
    expect(await client.eval('return 1', ['rl:k'], ['x'])).toEqual([9, 1700000000000]);
    expect(net.sent.map((s) => s.body)).toEqual([
      ['EVALSHA', 'abc123', 2, 'rl:k1', 'rl:k2', 10, 60000, 1],
      ['EVAL', 'return 1', 1, 'rl:k', 'x'],
    ]);
    expect(net.sent[0]!.url).toBe('https://eu1-x.upstash.io');
    expect(new Headers(net.sent[0]!.init.headers).get('authorization')).toBe('Bearer tok');
    expect(net.sent[0]!.init.method).toBe('POST');
  });

  it("surfaces Redis's error text (NOSCRIPT) and any HTTP failure as errors", async () => {
    const noscript = recording(() =>
      Response.json({ error: 'NOSCRIPT No matching script. Please use EVAL.' }, { status: 400 }),
    );
    await expect(
      createUpstashScriptClient({ url: 'https://x', token: 't', fetch: noscript.fetch }).evalsha('s', [], []),
    ).rejects.toThrow(/NOSCRIPT/);
    const down = recording(() => new Response('bad gateway', { status: 502 }));
    await expect(
      createUpstashScriptClient({ url: 'https://x', token: 't', fetch: down.fetch }).eval('s', [], []),
    ).rejects.toThrow('Upstash answered HTTP 502');
  });
});
