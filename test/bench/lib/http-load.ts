// Closed-loop HTTP load with exact latencies: `connections` clients, each sending its next request as soon as the
// previous answer has been read, until the time is up. Each client is one undici Client (one keep-alive socket).
// With `addresses`, a client sends at most `perAddress` requests from one loopback source address and then
// reconnects from the next one, so every address stays within a per-IP budget (127.0.0.0/8 is all loopback on
// Linux: the server sees each as a different client). Latency is measured per request with performance.now().
import { Client } from 'undici';

export interface LoadRequest {
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  /** http://127.0.0.1:port */
  origin: string;
  connections: number;
  seconds: number;
  /** The next request of client `client`. */
  request: (client: number) => LoadRequest;
  /** Rotating source addresses: at most `perAddress` requests from each. */
  addresses?: { next: () => string; perAddress: number };
}

export interface LoadResult {
  requests: number;
  seconds: number;
  reqPerSec: number;
  /** Milliseconds, with µs precision. */
  p50: number;
  p99: number;
  mean: number;
  statuses: Record<string, number>;
  /** Responses by the value of their X-Cache header (absent: "-"). */
  cache: Record<string, number>;
  errors: number;
  firstError?: string;
  /** Source addresses used. */
  addressesUsed: number;
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Hands out 127.x.y.z addresses in order, skipping .0 and .255 octets; `first` starts the range. */
export function loopbackAddresses(first = 1): () => string {
  let n = first;
  return () => {
    for (;;) {
      const a = (n >> 16) & 255;
      const b = (n >> 8) & 255;
      const c = n & 255;
      n++;
      if (c !== 0 && c !== 255 && a < 255) return `127.${a}.${b}.${c}`;
    }
  };
}

export async function runHttpLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const cache: Record<string, number> = {};
  let errors = 0;
  let firstError: string | undefined;
  let addressesUsed = 0;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  const open = () => {
    const localAddress = options.addresses?.next();
    if (localAddress) addressesUsed++;
    return new Client(options.origin, {
      pipelining: 1,
      keepAliveTimeout: 30_000,
      ...(localAddress && { localAddress }),
    });
  };
  const client = async (index: number) => {
    let http = open();
    let sent = 0;
    while (performance.now() < deadline) {
      if (options.addresses && sent >= options.addresses.perAddress) {
        await http.close();
        http = open();
        sent = 0;
      }
      const req = options.request(index);
      const t0 = performance.now();
      try {
        const res = await http.request({
          path: req.path,
          method: req.method ?? 'GET',
          headers: req.headers,
          body: req.body,
        });
        await res.body.dump({ limit: Number.MAX_SAFE_INTEGER });
        latencies.push(performance.now() - t0);
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        const hit = res.headers['x-cache'];
        const key = typeof hit === 'string' ? hit : '-';
        cache[key] = (cache[key] ?? 0) + 1;
      } catch (error) {
        errors++;
        firstError ??= String(error);
        await http.destroy().catch(() => undefined);
        http = open();
        sent = 0;
      }
      sent++;
    }
    await http.close().catch(() => undefined);
  };
  await Promise.all(Array.from({ length: options.connections }, (_, i) => client(i)));
  const seconds = (performance.now() - started) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    seconds: round3(seconds),
    reqPerSec: latencies.length / seconds,
    p50: round3(percentile(sorted, 0.5)),
    p99: round3(percentile(sorted, 0.99)),
    mean: round3(latencies.reduce((s, v) => s + v, 0) / Math.max(1, latencies.length)),
    statuses,
    cache,
    errors,
    firstError,
    addressesUsed,
  };
}
