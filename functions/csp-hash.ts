import { sha256 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';

const hashSource = (source: string) => `'sha256-${btoa(String.fromCharCode(...sha256(utf8ToBytes(source))))}'`;

/** A CSP source allowing exactly one inline script, by the hash of its text (CSP Level 3 hash-source). */
export const cspScriptHash = hashSource;

/** A CSP source allowing exactly one inline <style> element, by the hash of its text. */
export const cspStyleHash = hashSource;
