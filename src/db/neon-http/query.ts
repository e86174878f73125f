// Neon's SQL-over-HTTP protocol, the part drizzle's neon-http session calls: one POST to /sql per statement.
// Written instead of importing @neondatabase/serverless because that package is one pre-bundled file carrying
// the WebSocket Pool/Client and a pg port too (47.5 KiB gzipped in the Worker, of which this is the ~2 KiB the
// Worker runs). It follows @neondatabase/serverless 1.2.0's `neon()` request for request: the same headers, body,
// parameter text, result envelope and NeonDbError fields; test/e2e/standins/neon-http-client.test.ts runs the
// same statements through both and compares.
import { parseValue } from './types';
import { prepareValue } from './params';

/** A PostgreSQL error answered by Neon (HTTP 400), or a transport failure; the fields of a pg DatabaseError. */
export class NeonDbError extends Error {
  override name = 'NeonDbError';
  severity?: string;
  code?: string;
  detail?: string;
  hint?: string;
  position?: string;
  internalPosition?: string;
  internalQuery?: string;
  where?: string;
  schema?: string;
  table?: string;
  column?: string;
  dataType?: string;
  constraint?: string;
  file?: string;
  line?: string;
  routine?: string;
  sourceError?: unknown;
}

const ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

/** The options drizzle passes (drizzle-orm/neon-http/session.js: arrayMode and fullResults, authToken with $withAuth). */
export interface NeonQueryOptions {
  arrayMode?: boolean;
  fullResults?: boolean;
  authToken?: string;
}

/** One statement's answer as Neon sends it, values already parsed; what `fullResults: true` returns. */
export interface NeonFullResult {
  fields: { name: string; dataTypeID: number }[];
  command: string;
  rowCount: number | null;
  rows: unknown[];
  rowAsArray: boolean;
  viaNeonFetch: true;
}

export type NeonQueryFunction = (
  query: string,
  params?: unknown[],
  options?: NeonQueryOptions,
) => Promise<NeonFullResult | unknown[]>;

/** The application_name Neon's logs show for our connections (the official client sends its package URL). */
const APPLICATION_NAME = 'tooldir-neon-http';

/** `postgresql://…` with application_name added; the checks and messages of the official client. */
function resolveConnectionString(connectionString: string): { resolved: string; hostname: string } {
  let protocol: string;
  let url: URL;
  try {
    protocol = new URL(connectionString).protocol;
    url = new URL('http:' + connectionString.slice(protocol.length));
  } catch {
    throw new NeonDbError(
      `Database connection string provided to neon() is not a valid URL (connection string: ${connectionString})`,
    );
  }
  if (
    (protocol !== 'postgres:' && protocol !== 'postgresql:') ||
    !url.username ||
    !url.hostname ||
    url.hostname === '-' ||
    !url.pathname ||
    url.pathname === '/'
  ) {
    throw new NeonDbError('Wrong URL scheme or missing user, host or database in connection parameters');
  }
  if (!url.searchParams.has('application_name')) url.searchParams.append('application_name', APPLICATION_NAME);
  return { resolved: 'postgresql:' + url.href.slice(url.protocol.length), hostname: url.hostname };
}

function parseResult(result: NeonFullResult, arrayMode: boolean, fullResults: boolean): NeonFullResult | unknown[] {
  const names = result.fields.map((f) => f.name);
  const oids = result.fields.map((f) => f.dataTypeID);
  const rows = (result.rows as (string | null)[][]).map((row) =>
    arrayMode
      ? row.map((v, i) => (v === null ? null : parseValue(oids[i]!, v)))
      : Object.fromEntries(row.map((v, i) => [names[i], v === null ? null : parseValue(oids[i]!, v)])),
  );
  if (!fullResults) return rows;
  return Object.assign(result, { viaNeonFetch: true as const, rowAsArray: arrayMode, rows });
}

/**
 * The query function for drizzle's NeonHttpSession: `(sql, params, {arrayMode, fullResults})`.
 * `fetchEndpoint` defaults to Neon's (https://api.<rest of the host>/sql); tests point it at the stand-in.
 */
export function neonHttpQuery(connectionString: string, fetchEndpoint?: string): NeonQueryFunction {
  return async (query, params = [], options = {}) => {
    const { resolved, hostname } = resolveConnectionString(connectionString);
    const endpoint = fetchEndpoint ?? `https://${hostname.replace(/^[^.]+\./, 'api.')}/sql`;
    const headers: Record<string, string> = {
      'Neon-Connection-String': resolved,
      'Neon-Raw-Text-Output': 'true',
      'Neon-Array-Mode': 'true',
    };
    if (options.authToken !== undefined) headers.Authorization = `Bearer ${options.authToken}`;
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        body: JSON.stringify({ query, params: params.map(prepareValue) }),
        headers,
      });
    } catch (error) {
      throw Object.assign(new NeonDbError(`Error connecting to database: ${error}`), { sourceError: error });
    }
    if (response.ok)
      return parseResult(
        (await response.json()) as NeonFullResult,
        options.arrayMode ?? false,
        options.fullResults ?? false,
      );
    if (response.status === 400) {
      const body = (await response.json()) as Record<string, string | undefined>;
      const error = new NeonDbError(body.message);
      for (const field of ERROR_FIELDS) error[field] = body[field] ?? undefined;
      throw error;
    }
    throw new NeonDbError(`Server error (HTTP status ${response.status}): ${await response.text()}`);
  };
}
