import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { apiKeys } from '../db/schema';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { randomToken, sha256Hex } from '../crypto';
import type { KeyIdentity } from '../key-cache';

/** `tdk_` + 22 base62 characters (≈131 bits). Only the SHA-256 hash is stored. */
export const API_KEY_PATTERN = /^tdk_[0-9A-Za-z]{22}$/;
const PREFIX_LENGTH = 12; // "tdk_" + 8 characters: enough to recognise a key, useless to guess it

/**
 * How many keys an account may hold that are not revoked, whether created on the account keys page or by the
 * operator API: enough for every machine and agent an account holder runs; more is usually a key to revoke.
 */
export const MAX_ACTIVE_KEYS = 25;

/** The longest key name stored; the account page keeps names shorter (64), a form field's length. */
export const MAX_KEY_NAME_LENGTH = 100;

export interface CreatedKey {
  key_id: string;
  key: string;
  prefix: string;
  name: string;
}

/** A key's name as stored: runs of whitespace become one space, trimmed, cut to `maxLength`; blank is "default". */
export function normalizeKeyName(raw: string | undefined, maxLength = MAX_KEY_NAME_LENGTH): string {
  return (raw ?? '').replace(/\s+/g, ' ').trim().slice(0, maxLength).trimEnd() || 'default';
}

/**
 * Issues a key unless the account already has MAX_ACTIVE_KEYS active ones (409 conflict). One statement: the
 * account's active_key_count is raised only while under the cap, and the key is inserted only if it was, so
 * concurrent creates cannot pass the cap together (the row lock makes the second re-check the raised count).
 * Throws not_found when the account does not exist.
 */
export async function createApiKey(deps: Deps, accountId: string, name?: string): Promise<CreatedKey> {
  const key = `tdk_${randomToken(22)}`;
  const prefix = key.slice(0, PREFIX_LENGTH);
  const keyName = normalizeKeyName(name);
  const [row] = await queryRows<{ account_found: boolean; key_id: string | null }>(
    deps.db,
    sql`WITH slot AS (
          UPDATE accounts SET active_key_count = active_key_count + 1
          WHERE id = ${accountId} AND active_key_count < ${MAX_ACTIVE_KEYS}
          RETURNING id
        ), created AS (
          INSERT INTO api_keys (account_id, name, prefix, hash)
          SELECT id, ${keyName}, ${prefix}, ${await sha256Hex(key)} FROM slot
          RETURNING id
        )
        SELECT EXISTS (SELECT 1 FROM accounts WHERE id = ${accountId}) AS account_found,
               (SELECT id FROM created) AS key_id`,
  );
  if (!row?.account_found) throw new ServiceError('not_found', 'No account with this id.');
  if (!row.key_id) {
    throw new ServiceError(
      'conflict',
      `You already have ${MAX_ACTIVE_KEYS} active keys. Revoke one you no longer use first.`,
    );
  }
  return { key_id: row.key_id, key, prefix, name: keyName };
}

/** Resolves a bearer key to its account, or throws unauthorized. Warm keys cost no statement. */
export async function authenticateKey(deps: Deps, key: string | undefined): Promise<KeyIdentity> {
  if (!key || !API_KEY_PATTERN.test(key)) throw unauthorized();
  const hash = await sha256Hex(key);
  const cached = deps.keyCache.get(hash);
  if (cached) {
    touchKey(deps, cached.keyId);
    return cached;
  }
  const [row] = await queryRows<{ key_id: string; account_id: string; email: string }>(
    deps.db,
    sql`SELECT k.id AS key_id, k.account_id, a.email FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.hash = ${hash} AND k.revoked_at IS NULL`,
  );
  if (!row) throw unauthorized();
  const identity = { keyId: row.key_id, accountId: row.account_id, email: row.email };
  deps.keyCache.set(hash, identity);
  touchKey(deps, identity.keyId);
  return identity;
}

/**
 * Revokes a key; the cache forgets it at once in this process. Returns false for an unknown key (or, given
 * `accountId`, another account's). Revoking twice is harmless: only the first revoke frees a place under the cap.
 */
export async function revokeApiKey(deps: Deps, keyId: string, accountId?: string): Promise<boolean> {
  const owner = accountId === undefined ? sql`` : sql` AND account_id = ${accountId}`;
  const [row] = await queryRows<{ found: boolean }>(
    deps.db,
    sql`WITH revoked AS (
          UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId}${owner} AND revoked_at IS NULL
          RETURNING account_id
        ), freed AS (
          UPDATE accounts SET active_key_count = active_key_count - 1 FROM revoked WHERE accounts.id = revoked.account_id
          RETURNING accounts.id
        )
        SELECT EXISTS (SELECT 1 FROM api_keys WHERE id = ${keyId}${owner}) AS found`,
  );
  deps.keyCache.evictKey(keyId);
  return row?.found === true;
}

export async function listApiKeys(deps: Deps, accountId: string) {
  return deps.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId))
    .orderBy(sql`${apiKeys.createdAt} DESC`);
}

/** last_used_at, off the response path and at most once a minute per key (no write per request). */
function touchKey(deps: Deps, keyId: string) {
  if (!deps.keyCache.shouldTouch(keyId)) return;
  deps.defer(
    deps.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt))),
  );
}

const unauthorized = () =>
  new ServiceError('unauthorized', 'A valid API key is required: Authorization: Bearer <key>.');
