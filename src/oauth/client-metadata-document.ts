// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, recommended by the MCP
// authorization spec 2025-11-25): the client_id is an https URL whose JSON describes the client. It is fetched
// through the crawler's safe fetcher (deps.crawl: no private, loopback or metadata addresses, checked before
// any packet; DNS pinned on Node), without following redirects, bounded in time and bytes, and cached.
//
// Anyone can make this server try a URL, so a document that does not arrive gets one answer whatever the
// cause: a name that does not resolve, one that resolves to a private address, a refused connection, a timeout
// or an error status would otherwise tell a stranger which internal names exist. The cause goes to the log.
import { sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { fetchFollowingCheckedRedirects, discardBody } from '../crawler/safe-fetch';
import { readBoundedBody } from '../crawler/read-body';
import { checkClientMetadata } from './client-metadata';
import type { OAuthClient } from './oauth-client';

export const METADATA_DOCUMENT_LIMITS = { maxBytes: 5 * 1024, timeoutMs: 5_000, cacheSeconds: 3600 } as const;

/** The one answer for a document that did not arrive, whatever stopped it (see the top of this file). */
export const UNREACHABLE_DOCUMENT =
  'it could not be fetched (it must answer 200 with JSON at exactly that https address, without a redirect)';

/** An https URL with a path, no fragment, no credentials and no dot segments (the draft's §3 rules). */
export function isMetadataDocumentClientId(value: string): boolean {
  if (!value.startsWith('https://') || value.length > 2000) return false;
  try {
    const url = new URL(value);
    return url.pathname !== '/' && !url.hash && !url.username && !url.password && !/\/\.\.?(\/|$)/.test(value.slice(8));
  } catch {
    return false;
  }
}

export type MetadataDocumentResult = { ok: true; client: OAuthClient } | { ok: false; message: string };

/** The client a metadata document describes: from the cache while fresh, else fetched and cached. */
export async function loadMetadataDocumentClient(deps: Deps, clientId: string): Promise<MetadataDocumentResult> {
  const now = deps.now();
  const [cached] = await queryRows<{ name: string | null; redirect_uris: string[] | string }>(
    deps.db,
    sql`SELECT name, redirect_uris FROM oauth_clients
        WHERE id = ${clientId} AND kind = 'metadata_document' AND expires_at > ${now.toISOString()}::timestamptz`,
  );
  if (cached) return { ok: true, client: client(clientId, cached.name, cached.redirect_uris) };
  const fetched = await fetchDocument(deps, clientId);
  if (!fetched.ok) {
    deps.log.warn('client metadata document refused', { clientId, reason: fetched.detail });
    // Only the host: the page shows what this server found, not the text someone put in a link.
    return {
      ok: false,
      message: `The app's client_id document at ${new URL(clientId).host} cannot be used: ${fetched.message}.`,
    };
  }
  const expiresAt = new Date(now.getTime() + METADATA_DOCUMENT_LIMITS.cacheSeconds * 1000).toISOString();
  await queryRows(
    deps.db,
    sql`INSERT INTO oauth_clients (id, kind, name, redirect_uris, expires_at, created_at)
        VALUES (${clientId}, 'metadata_document', ${fetched.name}, ${JSON.stringify(fetched.redirectUris)}::jsonb,
          ${expiresAt}::timestamptz, ${now.toISOString()}::timestamptz)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris, expires_at = excluded.expires_at
        WHERE oauth_clients.kind = 'metadata_document'`,
  );
  return { ok: true, client: client(clientId, fetched.name, fetched.redirectUris) };
}

const client = (id: string, name: string | null, uris: string[] | string): OAuthClient => ({
  id,
  kind: 'metadata_document',
  name,
  redirectUris: typeof uris === 'string' ? (JSON.parse(uris) as string[]) : uris,
});

type Fetched =
  | { ok: true; name: string | null; redirectUris: string[] }
  | { ok: false; message: string; detail: string };

async function fetchDocument(deps: Deps, url: string): Promise<Fetched> {
  const { maxBytes } = METADATA_DOCUMENT_LIMITS;
  // A transport with a shorter deadline (the tests' simulated network) shortens this one too.
  const timeoutMs = Math.min(METADATA_DOCUMENT_LIMITS.timeoutMs, deps.crawl.timeoutMs ?? Infinity);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  const unreachable = (detail: string): Fetched => ({ ok: false, message: UNREACHABLE_DOCUMENT, detail });
  try {
    const fetched = await fetchFollowingCheckedRedirects(url, {
      fetch: deps.crawl.fetch,
      resolver: deps.crawl.resolver,
      allowPrivate: deps.config.crawl.allowPrivate,
      maxRedirects: 0, // a redirect would let another URL speak for this client_id
      signal: controller.signal,
      headers: { accept: 'application/json', 'user-agent': 'tooldir-oauth/1.0' },
    });
    if (!fetched.ok) return unreachable(`${fetched.error.kind}: ${fetched.error.detail}`);
    const { response } = fetched;
    if (response.status !== 200) {
      discardBody(response);
      return unreachable(`HTTP ${response.status}`);
    }
    // From here on a public server has answered 200 at that address: what it sent may be described.
    if (!/^application\/([\w.+-]+\+)?json\b/i.test(response.headers.get('content-type') ?? '')) {
      discardBody(response);
      return { ok: false, message: 'it is not JSON', detail: `content-type ${response.headers.get('content-type')}` };
    }
    const body = await readBoundedBody(response, maxBytes, controller.signal);
    if (!body.ok) {
      if (body.error.kind !== 'too_large') return unreachable(`${body.error.kind}: ${body.error.detail}`);
      return { ok: false, message: `it is larger than ${maxBytes} bytes`, detail: body.error.detail };
    }
    return checkDocument(url, new TextDecoder().decode(body.bytes));
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new Error('done'));
  }
}

function checkDocument(url: string, text: string): Fetched {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { ok: false, message: 'it is not valid JSON', detail: 'JSON.parse failed' };
  }
  const fields = (document ?? {}) as Record<string, unknown>;
  if (fields.client_id !== url)
    return {
      ok: false,
      message: 'its client_id is not its own URL',
      detail: `client_id ${String(fields.client_id).slice(0, 200)}`,
    };
  if ('client_secret' in fields || 'client_secret_expires_at' in fields) {
    return { ok: false, message: 'it carries a client secret', detail: 'client_secret present' };
  }
  const method = fields.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    return {
      ok: false,
      message: 'it asks for client authentication; only public clients (none) are supported',
      detail: `token_endpoint_auth_method ${String(method)}`,
    };
  }
  const checked = checkClientMetadata(document, { nameRefusedUri: false });
  if (!checked.ok) return { ok: false, message: checked.message.replace(/\.$/, ''), detail: checked.error };
  return { ok: true, ...checked.value };
}
