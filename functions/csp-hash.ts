import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

// The few fixed inline scripts are hashed once each, on first use, not per response.
const known = new Map<string, string>();
/** A CSP source allowing exactly one inline script, by the hash of its text (CSP Level 3 hash-source). */
export const cspScriptHash = (source: string): string => {
  let hash = known.get(source);
  if (hash === undefined) {
    hash = `'sha256-${btoa(String.fromCharCode(...sha256(utf8ToBytes(source))))}'`;
    if (known.size < 64) known.set(source, hash);
  }
  return hash;
};
