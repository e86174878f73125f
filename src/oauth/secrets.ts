// The secrets this authorization server hands out. Each is random (≥ 190 bits), carries a recognisable prefix
// (so a leaked one is easy to spot and scan for) and is stored only as its SHA-256 hash.
import { randomToken } from '../crypto';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 86_400;
export const CODE_TTL_SECONDS = 600;

const PREFIX = { access: 'tdat_', refresh: 'tdrt_', code: 'tdac_', client: 'tdcl_' } as const;
const SHAPE = {
  access: /^tdat_[0-9A-Za-z]{32}$/,
  refresh: /^tdrt_[0-9A-Za-z]{32}$/,
  code: /^tdac_[0-9A-Za-z]{32}$/,
  client: /^tdcl_[0-9A-Za-z]{22}$/,
};

export type SecretKind = keyof typeof PREFIX;

/** A new secret of this kind: the prefix and 32 base62 characters (≈190 bits); client ids get 22 (≈131 bits). */
export const newSecret = (kind: SecretKind) => `${PREFIX[kind]}${randomToken(kind === 'client' ? 22 : 32)}`;

/** Whether a string has the shape of this kind: anything else is refused before any statement runs. */
export const looksLike = (kind: SecretKind, value: string | undefined): value is string =>
  !!value && SHAPE[kind].test(value);
