import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { oauthClientKinds } from '../../catalog/oauth-client-kinds';
import { tstz, createdAt } from './columns';
import { accounts } from './accounts';

// OAuth for the MCP endpoint: clients, codes, grants, tokens (docs/mcp-and-search.md).

/**
 * OAuth clients of the MCP endpoint (docs/mcp-and-search.md "Connecting by URL (OAuth)"): registered through
 * Dynamic Client Registration (id `tdcl_…`), or a Client ID Metadata Document cached by its URL (the id).
 * Public clients only: no secret is ever issued. `name` is what the client says it is (shown as unverified).
 */
export const oauthClients = pgTable(
  'oauth_clients',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: oauthClientKinds }).notNull(),
    name: text('name'),
    redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
    /** metadata_document: when the cached copy must be fetched again. */
    expiresAt: tstz('expires_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_clients_created_idx').on(t.createdAt)],
);

/** Authorization codes (stored hashed): single use, 10 minutes, bound to client, redirect URI, PKCE challenge and resource. */
export const oauthCodes = pgTable(
  'oauth_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    resource: text('resource').notNull(),
    scope: text('scope').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** Set by the one statement that redeems the code; a second redemption revokes grant_id (RFC 6749 §4.1.2). */
    usedAt: tstz('used_at'),
    grantId: uuid('grant_id'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_codes_expires_idx').on(t.expiresAt)],
);

/**
 * One consent turned into tokens: a "connected app" on /account. The grant is the refresh-token family:
 * revoking it (the person, the operator, RFC 7009, or a reused refresh token) ends every token it issued at once.
 */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    redirectUri: text('redirect_uri').notNull(),
    scope: text('scope').notNull(),
    /** The audience (RFC 8707): our /mcp URL when it was issued; a token is accepted only by that resource. */
    resource: text('resource').notNull(),
    createdAt: createdAt(),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
  },
  (t) => [index('oauth_grants_account_idx').on(t.accountId, t.createdAt)],
);

/** Access (1 hour) and refresh (30 days, rotated on every use) tokens, stored only as SHA-256 hashes. */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    scope: text('scope').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    /** refresh: set when rotated (or revoked); presenting it again revokes the whole grant. */
    usedAt: tstz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('oauth_tokens_grant_idx').on(t.grantId), index('oauth_tokens_expires_idx').on(t.expiresAt)],
);
