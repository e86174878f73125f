// Closed-loop load: N clients, each sending its next request as soon as the previous one answered, until
// a deadline. Records every status, error code, latency and the site ids of accepted submits.
import { distinctSubmit } from './seed';

/** One account of the load: its keys for this phase (each request picks one) and the sites it owns so far. */
export interface LoadAccount {
  id: string;
  keys: string[];
  siteIds: string[];
}

export interface LoadStats {
  requests: number;
  statuses: Map<number, number>;
  errorCodes: Map<string, number>;
  /** Accepted submits (201) with the account that owns them, to read back afterwards. */
  accepted: { accountId: string; siteId: string }[];
  /** Responses of 5xx with their bodies (a few), for the report. */
  serverErrors: string[];
  networkErrors: number;
  maxLatencyMs: number;
}

export function emptyStats(): LoadStats {
  return {
    requests: 0,
    statuses: new Map(),
    errorCodes: new Map(),
    accepted: [],
    serverErrors: [],
    networkErrors: 0,
    maxLatencyMs: 0,
  };
}

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** One request of the mix: 70 % reads (list or detail), 30 % submits with a fresh URL. */
async function oneRequest(base: string, account: LoadAccount, stats: LoadStats, submitShare: number): Promise<void> {
  const submit = Math.random() < submitShare;
  const key = account.keys[Math.floor(Math.random() * account.keys.length)]!;
  const started = performance.now();
  let res: Response;
  try {
    if (submit) {
      res = await fetch(`${base}/api/v1/submit-site`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(distinctSubmit('soak')),
      });
    } else {
      const id = account.siteIds[Math.floor(Math.random() * account.siteIds.length)];
      const path = id && Math.random() < 0.5 ? `/api/v1/sites/${id}` : '/api/v1/sites?limit=20';
      res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    }
  } catch {
    stats.networkErrors++;
    return;
  }
  const text = await res.text();
  stats.requests++;
  stats.maxLatencyMs = Math.max(stats.maxLatencyMs, performance.now() - started);
  bump(stats.statuses, res.status);
  if (res.status >= 400 && res.status !== 402) {
    const code = (() => {
      try {
        return (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? 'no-error-shape';
      } catch {
        return 'not-json';
      }
    })();
    bump(stats.errorCodes, `${res.status} ${code}`);
  }
  if (res.status >= 500 && stats.serverErrors.length < 5)
    stats.serverErrors.push(`${res.status} ${text.slice(0, 300)}`);
  if (submit && res.status === 201) {
    const siteId = (JSON.parse(text) as { site_id: string }).site_id;
    stats.accepted.push({ accountId: account.id, siteId });
    account.siteIds.push(siteId);
  }
}

/** Runs `clients` closed-loop clients over the accounts (round robin) for `seconds`. */
export async function runLoad(options: {
  base: string;
  accounts: LoadAccount[];
  clients: number;
  seconds: number;
  submitShare?: number;
  stats?: LoadStats;
  /** Called once, `atSecond` after the start (fault injection mid-load). */
  midway?: { atSecond: number; run: () => Promise<void> };
}): Promise<LoadStats> {
  const stats = options.stats ?? emptyStats();
  const deadline = performance.now() + options.seconds * 1000;
  const clients = Array.from({ length: options.clients }, async (_, i) => {
    const account = options.accounts[i % options.accounts.length]!;
    while (performance.now() < deadline) await oneRequest(options.base, account, stats, options.submitShare ?? 0.3);
  });
  const fault = options.midway
    ? new Promise((r) => setTimeout(r, options.midway!.atSecond * 1000)).then(() => options.midway!.run())
    : Promise.resolve();
  await Promise.all([...clients, fault]);
  return stats;
}

/** Compact text of a stats object for tables. */
export function describeStats(stats: LoadStats): string {
  const statuses = [...stats.statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return `${stats.requests} requests: ${statuses}${stats.networkErrors ? `, ${stats.networkErrors} network errors` : ''}`;
}
