// What the token endpoint answers (RFC 6749 §5.1), and the secrets behind it.
import { sha256Hex } from '../crypto';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS, newSecret } from './secrets';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** A fresh access/refresh pair: the values for the client, the hashes and expiry times for the database. */
export async function newTokenPair(now: Date) {
  const access = newSecret('access');
  const refresh = newSecret('refresh');
  return {
    access,
    refresh,
    accessHash: await sha256Hex(access),
    refreshHash: await sha256Hex(refresh),
    accessExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000).toISOString(),
    refreshExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_SECONDS * 1000).toISOString(),
  };
}

export const tokenResponse = (pair: { access: string; refresh: string }, scope: string): TokenResponse => ({
  access_token: pair.access,
  token_type: 'Bearer',
  expires_in: ACCESS_TOKEN_TTL_SECONDS,
  refresh_token: pair.refresh,
  scope,
});
