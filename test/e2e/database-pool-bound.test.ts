// The Node server on a real PostgreSQL keeps at most DATABASE_POOL_MAX connections (default 4), however many requests
// arrive at once: the rest wait their turn and are answered. Counted by PostgreSQL itself (pg_stat_activity), sampled
// while 48 searches are in flight; the searches that wait for a connection are read several to a statement. And it keeps them between visits (src/db/node-clients.ts SERVER_POOL_IDLE_MS): a
// new backend plans every statement of a search again.
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../functions/node';
import { rankedPages } from '../../src/directory/ranked-pages';
import { seedTools } from '../helpers/live-tools';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../helpers/services/postgres';
import { requireService } from '../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);

describePg('the Node server on PostgreSQL keeps a bounded pool', () => {
  let database: PostgresServer;
  let watcher: pg.Client;

  beforeAll(async () => {
    database = await startPostgres({ database: 'tooldir_pool' });
    watcher = new pg.Client({ connectionString: database.connectionString });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher?.end();
    await database?.close();
  });

  /** The database's connections but the watcher's own. */
  const connections = async () => {
    const { rows } = await watcher.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return Number(rows[0]!.n);
  };

  /**
   * A server on the database once the previous one's backends are gone: PostgreSQL ends a backend a moment after its
   * client disconnects, and a count that still saw them would be another server's.
   */
  const serve = async (env: Record<string, string> = {}) => {
    for (let waited = 0; (await connections()) > 0; waited += 20) {
      if (waited > 10_000) throw new Error('connections of an earlier server are still open after 10 s');
      await new Promise((done) => setTimeout(done, 20));
    }
    return startNodeServer(
      {
        DATABASE_URL: database.connectionString,
        ADMIN_TOKEN: 'pool-admin-token-0123456789abcdef',
        SITE_ORIGIN: 'https://tooldir.example',
        MAIL_TRANSPORT: 'outbox',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'silent',
        ...env,
      },
      { quiet: true, localSweeper: false },
    );
  };

  /** The most connections the server held while 48 searches ran at once, and their statuses. */
  async function busiest(server: NodeServer): Promise<{ most: number; statuses: number[] }> {
    let most = 0;
    let running = true;
    const sampling = (async () => {
      while (running) {
        most = Math.max(most, await connections());
        await new Promise((done) => setTimeout(done, 2));
      }
    })();
    const answers = await Promise.all(
      // 48 of the 60 searches a minute one client may make.
      Array.from({ length: 48 }, (_, i) => fetch(`${server.url}/api/v1/tools?q=pool+writer+${i}`)),
    );
    running = false;
    await sampling;
    return { most: Math.max(most, await connections()), statuses: answers.map((answer) => answer.status) };
  }

  it('holds at most 4 connections by default and answers every request', async () => {
    const server = await serve();
    try {
      await seedTools(server.deps.db, [{ name: 'Pool Writer', description: 'Writes under load.' }]);
      const { most, statuses } = await busiest(server);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(most).toBeGreaterThan(0);
      expect(most).toBeLessThanOrEqual(4);
      // The searches that waited for a connection were read together (src/directory/ranked-pages.ts), at most 16 a statement.
      const counts = rankedPages(server.deps).counts();
      expect(counts.calls).toBe(48);
      expect(counts.statements).toBeLessThan(48);
      expect(counts.largestBatch).toBeGreaterThan(1);
      expect(counts.largestBatch).toBeLessThanOrEqual(16);
    } finally {
      await server.close();
    }
  });

  it('holds at most DATABASE_POOL_MAX connections when it is set', async () => {
    const server = await serve({ DATABASE_POOL_MAX: '1' });
    try {
      const { most, statuses } = await busiest(server);
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(most).toBe(1);
      // One connection: searches still take turns on it with every other statement, a batch at a time.
      expect(rankedPages(server.deps).counts().statements).toBeLessThan(48);
    } finally {
      await server.close();
    }
  });

  it('keeps its connection between visits more than 10 s apart, so a search does not plan its statements again', async () => {
    const server = await serve({ DATABASE_POOL_MAX: '1' });
    /** The server's one backend: its process id and when it started. */
    const backend = async () => {
      const { rows } = await watcher.query<{ pid: number; started: string }>(
        `SELECT pid, backend_start::text AS started FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return rows;
    };
    try {
      expect((await fetch(`${server.url}/api/v1/tools?q=idle+writer`)).status).toBe(200);
      const before = await backend();
      expect(before).toHaveLength(1);
      // node-postgres closes an idle connection after 10 s unless the pool says otherwise (SERVER_POOL_IDLE_MS).
      await new Promise((done) => setTimeout(done, 11_000));
      expect(await backend()).toEqual(before);
      expect((await fetch(`${server.url}/api/v1/tools?q=idle+writer+again`)).status).toBe(200);
      expect(await backend()).toEqual(before);
    } finally {
      await server.close();
    }
  }, 30_000);
});
