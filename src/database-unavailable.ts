// Which failures mean the database is unreachable or overloaded, read from PostgreSQL SQLSTATEs and the drivers'
// connection errors. A leaf rather than part of src/db/: the edges map such a failure to 503 without importing the
// database (routes under functions/ never do; .dependency-cruiser.cjs holds it).

/**
 * Database unreachable or overloaded: the request can be retried, so 503 rather than a bare 500.
 * The one rule for every surface (REST: functions/errors.ts; MCP tool calls: functions/mcp/tool-result.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // drizzle wraps the driver's error: the Postgres code (57P01 on a restart) sits on a cause.
  let text = '';
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    text += ` ${(e as { code?: string }).code ?? ''} ${String(e)}`;
  }
  return /ECONNREFUSED|ECONNRESET|ETIMEDOUT|57P01|57P03|53300|08006|08001|08003|Connection terminated|connect ETIMEDOUT|fetch failed|HTTP status 503|Error connecting to database|terminating connection/i.test(
    text,
  );
}
