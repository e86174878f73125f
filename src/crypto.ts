// Small crypto helpers shared by keys, sessions and sign-in codes (Workers and Node alike).
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes are drawn from the CSPRNG in 4 KiB batches and each byte is handed out once: one
// getRandomValues call per token cost ~10 µs of CPU on Node (a synchronous crypto job), as much as a whole
// statement's parsing. Node's own randomUUID pools its entropy the same way.
const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let poolOffset = POOL_SIZE;

function randomByte(): number {
  if (poolOffset === POOL_SIZE) {
    crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/** `length` base62 characters from a CSPRNG (rejection sampling keeps them uniform): 22 chars ≈ 131 bits. */
export function randomToken(length: number): string {
  let out = '';
  while (out.length < length) {
    const b = randomByte();
    if (b < 248) out += BASE62[b % 62];
  }
  return out;
}

/**
 * Lower-case hex SHA-256 of a UTF-8 string. Every authenticated request hashes its key, and on Node
 * `crypto.subtle.digest` is an asynchronous thread-pool job costing ~150 µs of CPU per call under load
 * (docs/bench.md); the audited pure-JS SHA-256 of @noble/hashes does a key in a few µs on both runtimes.
 * It stays async so callers need not care which implementation runs.
 */
export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** Constant-time comparison of two strings (for the operator token). */
export function timingSafeEqual(a: string, b: string): boolean {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  let diff = ea.length ^ eb.length;
  for (let i = 0; i < Math.max(ea.length, eb.length); i++) diff |= (ea[i] ?? 0) ^ (eb[i] ?? 0);
  return diff === 0;
}
