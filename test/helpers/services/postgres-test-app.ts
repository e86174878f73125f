// A test app on its own real PostgreSQL server (node-postgres pool), for suites that race writers on separate
// connections. Registers its set-up and tear-down in the calling describe block.
import { afterAll, beforeAll } from 'vitest';
import { openNodePostgres, type OpenedDb } from '../../../src/db/node-clients';
import { createTestApp, type TestApp } from '../test-app';
import type { DepsOverrides } from '../../../src/deps';
import { startPostgres, type PostgresServer } from './postgres';

/** `connections`: the pool size (one per writer that should run at the same time). */
export function usePostgresTestApp(options: { connections?: number; overrides?: DepsOverrides } = {}): {
  readonly t: TestApp;
} {
  let server: PostgresServer | undefined;
  let opened: OpenedDb | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    server = await startPostgres();
    opened = await openNodePostgres(server.connectionString, { max: options.connections ?? 20 });
    app = await createTestApp({ db: opened, overrides: options.overrides });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await opened?.close();
    await server?.close();
  });
  return {
    get t() {
      return app!;
    },
  };
}
