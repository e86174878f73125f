// Executes Neon SQL-over-HTTP requests on a real PostgreSQL through node-postgres, answering with raw text values.
import pg from 'pg';
import { isLoopbackHost } from './loopback';

/** One statement as @neondatabase/serverless sends it (params are already text or null). */
export interface NeonQuery {
  query: string;
  params?: unknown[];
}

/** Batch transaction options taken from the Neon-Batch-* headers. */
export interface NeonBatchOptions {
  isolationLevel?: string;
  readOnly?: boolean;
  deferrable?: boolean;
}

/** The result shape Neon answers per statement. */
export interface NeonResult {
  fields: pg.FieldDef[];
  command: string;
  rowCount: number | null;
  rows: unknown[];
  rowAsArray: boolean;
}

// Every value stays the text PostgreSQL sent: the Neon client applies its own type parsers.
const rawText: pg.CustomTypesConfig = { getTypeParser: () => (value: string) => value };

const ISOLATION_SQL: Record<string, string> = {
  ReadUncommitted: 'READ UNCOMMITTED',
  ReadCommitted: 'READ COMMITTED',
  RepeatableRead: 'REPEATABLE READ',
  Serializable: 'SERIALIZABLE',
};

/** Thrown for requests Neon itself would reject before reaching PostgreSQL. */
export class NeonRequestError extends Error {}

/** A cache of pools keyed by the Neon-Connection-String; only loopback databases are reachable. */
export class NeonSqlExecutor {
  private readonly pools = new Map<string, pg.Pool>();

  /** @param poolSize connections per database, like the pooler in front of a Neon compute */
  constructor(private readonly poolSize = 20) {}

  private pool(connectionString: string): pg.Pool {
    let pool = this.pools.get(connectionString);
    if (pool) return pool;
    let url: URL;
    try {
      url = new URL(connectionString);
    } catch {
      throw new NeonRequestError('invalid Neon-Connection-String');
    }
    if (!isLoopbackHost(url.hostname)) throw new NeonRequestError(`stand-in refuses non-loopback host ${url.hostname}`);
    pool = new pg.Pool({ connectionString, max: this.poolSize });
    // An idle client dying (server restart) must not crash the test process; the pool drops it.
    pool.on('error', () => {});
    this.pools.set(connectionString, pool);
    return pool;
  }

  private static async run(client: pg.PoolClient, q: NeonQuery, arrayMode: boolean): Promise<NeonResult> {
    const result = await client.query({
      text: q.query,
      values: q.params ?? [],
      types: rawText,
      ...(arrayMode ? { rowMode: 'array' as const } : {}),
    });
    return {
      fields: result.fields,
      command: result.command,
      rowCount: result.rowCount,
      rows: result.rows,
      rowAsArray: arrayMode,
    };
  }

  /** Runs one statement on its own (autocommit), like Neon's single-query endpoint. */
  async single(connectionString: string, q: NeonQuery, arrayMode: boolean): Promise<NeonResult> {
    const client = await this.pool(connectionString).connect();
    let broken: Error | undefined;
    try {
      return await NeonSqlExecutor.run(client, q, arrayMode);
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  /** Runs all statements in ONE transaction; any failure rolls every statement back. */
  async batch(
    connectionString: string,
    queries: NeonQuery[],
    arrayMode: boolean,
    options: NeonBatchOptions,
  ): Promise<NeonResult[]> {
    const modes = [
      options.isolationLevel ? `ISOLATION LEVEL ${ISOLATION_SQL[options.isolationLevel] ?? 'READ COMMITTED'}` : '',
    ];
    if (options.readOnly !== undefined) modes.push(options.readOnly ? 'READ ONLY' : 'READ WRITE');
    if (options.deferrable !== undefined) modes.push(options.deferrable ? 'DEFERRABLE' : 'NOT DEFERRABLE');
    const client = await this.pool(connectionString).connect();
    let broken: Error | undefined;
    try {
      await client.query(`BEGIN ${modes.filter(Boolean).join(' ')}`);
      const results: NeonResult[] = [];
      for (const q of queries) results.push(await NeonSqlExecutor.run(client, q, arrayMode));
      await client.query('COMMIT');
      return results;
    } catch (error) {
      if (error instanceof pg.DatabaseError) await client.query('ROLLBACK').catch(() => {});
      else broken = error as Error;
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
  }
}
