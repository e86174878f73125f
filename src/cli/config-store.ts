// The CLI's private settings file: API key, base URL and the site_ids of its own submissions.
// Lives at $XDG_CONFIG_HOME/tooldir/config.json (default ~/.config/tooldir/config.json), dir 0700, file 0600.
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './cli-error';
import { canonicalUrlKey } from './url-input';

/** One submission the CLI made, remembered so `status <url>` can find unpaid ones the list hides. */
export interface RememberedSubmission {
  site_id: string;
  url: string;
  url_key: string;
  name: string;
  base_url: string;
  recorded_at: string;
}

export interface CliConfig {
  api_key?: string;
  /** The origin the stored key was checked against at login: it is sent nowhere else (session.ts). */
  key_origin?: string;
  base_url?: string;
  submissions: RememberedSubmission[];
}

/** Older entries are dropped beyond this many, so the file stays small. */
const maxRemembered = 500;

/** Where the config file lives for this environment. */
export function configFilePath(env: Readonly<Record<string, string | undefined>>): string {
  const xdg = env.XDG_CONFIG_HOME?.trim();
  const base = xdg && xdg.startsWith('/') ? xdg : join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'tooldir', 'config.json');
}

/** Reads and writes the config file; every write leaves the file at mode 0600 in a 0700 directory. */
export class ConfigStore {
  constructor(readonly path: string) {}

  async read(): Promise<CliConfig> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isNotFound(error)) return { submissions: [] };
      throw new CliError('config_unreadable', `Cannot read ${this.path}: ${describeFsError(error)}`);
    }
    try {
      return parseConfig(JSON.parse(text));
    } catch {
      throw new CliError('config_invalid', `${this.path} is not valid JSON; fix or delete it`);
    }
  }

  async write(config: CliConfig): Promise<void> {
    const dir = dirname(this.path);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await chmod(dir, 0o700);
      // Write a sibling and rename, so a crash never leaves a half-written key file.
      const temporary = `${this.path}.${process.pid}.tmp`;
      await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
      await chmod(temporary, 0o600);
      await rename(temporary, this.path);
    } catch (error) {
      throw new CliError('config_unwritable', `Cannot write ${this.path}: ${describeFsError(error)}`);
    }
  }

  /** Applies `change` to the stored config and saves the result. */
  async update(change: (config: CliConfig) => CliConfig): Promise<CliConfig> {
    const next = change(await this.read());
    await this.write(next);
    return next;
  }

  async remove(): Promise<void> {
    await rm(this.path, { force: true });
  }
}

/** Adds a submission to the record (newest last), replacing an older entry for the same site_id. */
export function rememberSubmission(
  config: CliConfig,
  entry: Omit<RememberedSubmission, 'url_key' | 'recorded_at'>,
  now: Date,
): CliConfig {
  const kept = config.submissions.filter((item) => item.site_id !== entry.site_id);
  kept.push({ ...entry, url_key: canonicalUrlKey(entry.url), recorded_at: now.toISOString() });
  return { ...config, submissions: kept.slice(-maxRemembered) };
}

/** The remembered site_ids for a URL on one service, newest first. */
export function findRemembered(config: CliConfig, url: string, baseUrl: string): RememberedSubmission[] {
  const key = canonicalUrlKey(url);
  // Keyed again from the remembered URL, not the stored url_key: entries written under an older canonical
  // form (before http and https were one site, say) are still found.
  return config.submissions.filter((item) => canonicalUrlKey(item.url) === key && item.base_url === baseUrl).reverse();
}

function parseConfig(value: unknown): CliConfig {
  if (typeof value !== 'object' || value === null) throw new Error('not an object');
  const record = value as Record<string, unknown>;
  const config: CliConfig = { submissions: [] };
  if (typeof record.api_key === 'string') config.api_key = record.api_key;
  if (typeof record.key_origin === 'string') config.key_origin = record.key_origin;
  if (typeof record.base_url === 'string') config.base_url = record.base_url;
  if (Array.isArray(record.submissions)) {
    config.submissions = record.submissions.filter(isRememberedSubmission);
  }
  return config;
}

function isRememberedSubmission(value: unknown): value is RememberedSubmission {
  if (typeof value !== 'object' || value === null) return false;
  const item = value as Record<string, unknown>;
  return ['site_id', 'url', 'url_key', 'name', 'base_url', 'recorded_at'].every(
    (field) => typeof item[field] === 'string',
  );
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

function describeFsError(error: unknown): string {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return error instanceof Error ? error.message : String(error);
}
