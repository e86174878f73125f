// PKCE with S256 only (RFC 7636; OAuth 2.1 requires PKCE and forbids nothing weaker than S256 here).
import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** base64url of a SHA-256 digest: exactly 43 characters, no padding. */
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

export const isCodeVerifier = (value: string) => VERIFIER.test(value);
export const isCodeChallenge = (value: string) => CHALLENGE.test(value);

/** base64url without padding (RFC 4648 §5); btoa exists on Workers and Node alike. */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The S256 challenge of a verifier: BASE64URL(SHA256(ASCII(verifier))). */
export const s256Challenge = (verifier: string) => base64Url(sha256(utf8ToBytes(verifier)));
