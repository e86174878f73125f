// Self-test of the throwaway PostgreSQL and Redis servers: start, query, stop/start for fault tests, cleanup.
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findPostgresBinaries, type PostgresServer, startPostgres } from '../../helpers/services/postgres';
import { findRedisServer, type RedisServer, startRedis } from '../../helpers/services/redis';
import { requireService } from '../../helpers/services/require-service';

const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
const describeRedis = requireService('Redis', findRedisServer() !== null);

async function queryOnce(connectionString: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

function redisCommand(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`${line}\r\n`));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}

describePg('throwaway PostgreSQL', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgres({ database: 'selftest' });
  });
  afterAll(() => server?.close());

  it('serves the created database on loopback', async () => {
    expect(server.connectionString).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/selftest$/);
    const rows = await queryOnce(
      server.connectionString,
      `select current_database() as db, inet_server_addr()::text as addr`,
    );
    expect(rows).toEqual([{ db: 'selftest', addr: '127.0.0.1/32' }]);
  });

  it('keeps data across stop/start and refuses connections while stopped', async () => {
    await queryOnce(server.connectionString, 'create table kept (v int); insert into kept values (42)');
    await server.stop();
    await expect(queryOnce(server.connectionString, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
    await server.start();
    expect(await queryOnce(server.connectionString, 'select v from kept')).toEqual([{ v: 42 }]);
    await server.restart();
    expect(await queryOnce(server.connectionString, 'select v from kept')).toEqual([{ v: 42 }]);
  });

  it('close() removes the temp dir', async () => {
    const other = await startPostgres();
    const dataDirRows = (await queryOnce(other.connectionString, 'show data_directory')) as {
      data_directory: string;
    }[];
    const dataDir = dataDirRows[0]?.data_directory ?? '';
    expect(existsSync(dataDir)).toBe(true);
    await other.close();
    expect(existsSync(dataDir)).toBe(false);
  });
});

describeRedis('throwaway Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.close());

  it('answers on loopback without persistence', async () => {
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(await redisCommand(server.port, 'CONFIG GET save')).toContain('save\r\n$0\r\n');
  });

  it('stop() refuses connections and start() serves again on the same port', async () => {
    await server.stop();
    await expect(redisCommand(server.port, 'PING')).rejects.toThrow(/ECONNREFUSED/);
    await server.start();
    expect(await redisCommand(server.port, 'PING')).toBe('+PONG\r\n');
  });
});
