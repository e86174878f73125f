/**
 * What @upstash/ratelimit's sliding window sends to Redis, and nothing else: EVALSHA, and EVAL when Redis does not
 * know the script yet (the limiter falls back on a `NOSCRIPT` error), over Upstash's REST API, one POST of the
 * command as a JSON array answered `{"result"}` or `{"error"}`. It stands in for the @upstash/redis client, whose
 * hundreds of commands cost the Worker bundle about 22 KiB gzipped for these two (docs/bench.md "Worker bundle").
 */
export interface UpstashScriptClient {
  evalsha(sha: string, keys: string[], args: unknown[]): Promise<unknown>;
  eval(script: string, keys: string[], args: unknown[]): Promise<unknown>;
}

export function createUpstashScriptClient(options: {
  url: string;
  token: string;
  fetch?: typeof fetch;
}): UpstashScriptClient {
  const send = async (command: unknown[]): Promise<unknown> => {
    const response = await (options.fetch ?? fetch)(options.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(command),
    });
    const body = (await response.json().catch(() => ({}))) as { result?: unknown; error?: string };
    if (!response.ok || typeof body.error === 'string')
      throw new Error(body.error ?? `Upstash answered HTTP ${response.status}`);
    return body.result;
  };
  return {
    evalsha: (sha, keys, args) => send(['EVALSHA', sha, keys.length, ...keys, ...args]),
    eval: (script, keys, args) => send(['EVAL', script, keys.length, ...keys, ...args]),
  };
}
