import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Deps } from '../deps';
import { apiKeys } from '../db/schema';
import { queryRows } from '../db/client';
import { ServiceError } from '../errors';
import { randomToken, sha256Hex } from '../crypto';
import type { KeyIdentity } from './key-cache';

/** `tdk_` + 22 base62 characters (≈131 bits). Only the SHA-256 hash is stored. */
export const API_KEY_PATTERN = /^tdk_[0-9A-Za-z]{22}$/;
const PREFIX_LENGTH = 12; // "tdk_" + 8 characters: enough to recognise a key, useless to guess it

export interface CreatedKey {
  key_id: string;
  key: string;
  prefix: string;
  name: string;
}

export async function createApiKey(deps: Deps, accountId: string, name = 'default'): Promise<CreatedKey> {
  const key = `tdk_${randomToken(22)}`;
  const [row] = await deps.db
    .insert(apiKeys)
    .values({ accountId, name, prefix: key.slice(0, PREFIX_LENGTH), hash: await sha256Hex(key) })
    .returning({ id: apiKeys.id });
  return { key_id: row!.id, key, prefix: key.slice(0, PREFIX_LENGTH), name };
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

/** Revokes a key; the cache forgets it at once in this process. Returns false for an unknown key. */
export async function revokeApiKey(deps: Deps, keyId: string, accountId?: string): Promise<boolean> {
  const rows = await deps.db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(accountId ? and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)) : eq(apiKeys.id, keyId))
    .returning({ id: apiKeys.id });
  deps.keyCache.evictKey(keyId);
  return rows.length > 0;
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

const unauthorized = () => new ServiceError('unauthorized', 'A valid API key is required: Authorization: Bearer <key>.');

