// Node only: secrets the local mode generates once and keeps in DATA_DIR (mode 0600).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../../src/crypto';

/** Reads DATA_DIR/<file>, creating it with `make()` on first use. */
export function localSecret(
  dataDir: string,
  file: string,
  make: () => string,
): { value: string; path: string; created: boolean } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const path = join(dataDir, file);
  if (existsSync(path)) return { value: readFileSync(path, 'utf8').trim(), path, created: false };
  const value = make();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return { value, path, created: true };
}

export const makeAdminToken = () => `tdadmin_${randomToken(32)}`;
export const makeWebhookSecret = () => `whsec_local${randomToken(32)}`;
