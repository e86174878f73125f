import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedStatement } from '../../db/prepared';

// The listing version (listing_version, bumped by triggers whenever anything the public pages show changes:
// drizzle/0029_listing_version.sql) as this process or isolate knows it. Cached pages are served only at the
// version they were rendered at (docs/pages.md "Caching").

const readVersion = preparedStatement<never>(() => sql`SELECT version FROM listing_version`);

export interface ListingVersion {
  /** The current version: read now (maxAgeMs 0), or the one read less than maxAgeMs ago. */
  current(defer: (work: Promise<unknown>) => void): Promise<number>;
}

/**
 * `maxAgeMs` 0 (Node): every check waits for a read of the one-row table that began after the check, so a page is
 * never served after a change that committed before the request. Above 0 (Workers, where each statement is an
 * HTTP round trip to Neon): a version younger than that is used as is, an older one too while a background read
 * (deferred) replaces it.
 */
export function createListingVersion(db: Db, options: { maxAgeMs: number; now?: () => number }): ListingVersion {
  const now = options.now ?? (() => Date.now());
  let value: number | undefined;
  let readAt = 0;
  let reading: Promise<number> | undefined;
  let queued: Promise<number> | undefined;
  const fetchVersion = async () => {
    const [row] = await readVersion.rows<{ version: number | string }>(db, {});
    value = Math.max(value ?? 0, Number(row?.version ?? 0));
    readAt = now();
    return value;
  };
  const start = () => (reading = fetchVersion().finally(() => (reading = undefined)));
  // Exact: a request may share only a read that starts after it arrived (one that began earlier could miss a change
  // committed in between). So one read runs, and every request that arrives meanwhile waits for the one queued
  // behind it: under load one read answers a whole batch of requests instead of one statement each.
  const exact = (): Promise<number> => {
    if (!reading) return start();
    queued ??= reading
      .catch(() => undefined)
      .then(() => {
        queued = undefined;
        return reading ?? start();
      });
    return queued;
  };
  return {
    async current(defer) {
      if (options.maxAgeMs <= 0) return exact();
      if (value === undefined) return reading ?? start();
      if (now() - readAt >= options.maxAgeMs && !reading) defer(start());
      return value;
    },
  };
}
