// OAuth clients: registered ones (RFC 7591 Dynamic Client Registration) and Client ID Metadata Documents.
import { sql } from 'drizzle-orm';
import { CustomOAuthError, InvalidClientMetadataError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { Deps } from '../deps';
import { queryRows } from '../db/client';
import { checkClientMetadata } from './client-metadata';
import {
  isMetadataDocumentClientId,
  loadMetadataDocumentClient,
  type MetadataDocumentResult,
} from './client-metadata-document';
import { looksLike, newSecret } from './secrets';
import type { OAuthClient } from './oauth-client';

/** The RFC 7591 §3.2.1 answer: everything the client will use, with our substitutions applied. */
export interface ClientRegistration {
  client_id: string;
  client_id_issued_at: number;
  client_name?: string;
  redirect_uris: string[];
  grant_types: ['authorization_code', 'refresh_token'];
  response_types: ['code'];
  token_endpoint_auth_method: 'none';
}

/**
 * Registers a public client (no secret). Throws the RFC 7591 errors: invalid_redirect_uri (a URI that is not
 * https, or http off loopback) and invalid_client_metadata. The caller rate-limits per client IP first.
 */
export async function registerClient(deps: Deps, metadata: unknown): Promise<ClientRegistration> {
  const checked = checkClientMetadata(metadata);
  if (!checked.ok) {
    throw checked.error === 'invalid_redirect_uri'
      ? new CustomOAuthError('invalid_redirect_uri', checked.message)
      : new InvalidClientMetadataError(checked.message);
  }
  const id = newSecret('client');
  const { name, redirectUris } = checked.value;
  const issuedAt = deps.now();
  await queryRows(
    deps.db,
    sql`INSERT INTO oauth_clients (id, kind, name, redirect_uris, created_at)
        VALUES (${id}, 'registered', ${name}, ${JSON.stringify(redirectUris)}::jsonb, ${issuedAt.toISOString()}::timestamptz)`,
  );
  return {
    client_id: id,
    client_id_issued_at: Math.floor(issuedAt.getTime() / 1000),
    ...(name !== null && { client_name: name }),
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

export type ClientLookup = { ok: true; client: OAuthClient } | { ok: false; message: string };

/**
 * The client behind a client_id: a registered one from the table, or an https URL whose metadata document is
 * read from the cache or fetched through the crawler's safe fetcher (client-metadata-document.ts).
 */
export async function findClient(deps: Deps, clientId: string | undefined): Promise<ClientLookup> {
  if (!clientId) return { ok: false, message: 'client_id is missing.' };
  if (isMetadataDocumentClientId(clientId)) return fromDocument(await loadMetadataDocumentClient(deps, clientId));
  if (!looksLike('client', clientId))
    return {
      ok: false,
      message: 'Unknown client_id: register the client first, or use an https URL of its metadata document.',
    };
  const [row] = await queryRows<{ id: string; name: string | null; redirect_uris: string[] | string }>(
    deps.db,
    sql`SELECT id, name, redirect_uris FROM oauth_clients WHERE id = ${clientId} AND kind = 'registered'`,
  );
  if (!row) return { ok: false, message: 'Unknown client_id: register the client again.' };
  return {
    ok: true,
    client: { id: row.id, kind: 'registered', name: row.name, redirectUris: parseUris(row.redirect_uris) },
  };
}

const fromDocument = (result: MetadataDocumentResult): ClientLookup =>
  result.ok ? { ok: true, client: result.client } : { ok: false, message: result.message };

/** jsonb arrives parsed from some drivers and as text from others. */
export const parseUris = (value: string[] | string): string[] =>
  typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
