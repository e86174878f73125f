// Resolves what every command needs: the service address, the key, the config store and a client.
import { ApiClient } from './api-client';
import { CliError, usageError } from './cli-error';
import { ConfigStore, configFilePath, type CliConfig } from './config-store';
import type { CliContext } from './context';

export const defaultBaseUrl = 'http://127.0.0.1:8787';

/** Options accepted by every command. */
export interface GlobalOptions {
  baseUrl?: string;
  json?: boolean;
}

export interface Session {
  store: ConfigStore;
  config: CliConfig;
  baseUrl: string;
  json: boolean;
}

export interface KeyedSession extends Session {
  client: ApiClient;
}

/** Validates a service address and strips a trailing slash or `/api/v1`, so both spellings work. */
export function normalizeBaseUrl(value: string): string {
  let parsed: URL;
  try {
    parsed = new URL(value.trim());
  } catch {
    throw usageError(`--base-url "${value}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw usageError(`--base-url "${value}" must start with http:// or https://`);
  }
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return `${parsed.origin}${path}`;
}

/** Flag beats TOOLDIR_BASE_URL beats the stored address beats the local default. */
export function resolveBaseUrl(flag: string | undefined, env: CliContext['env'], stored: string | undefined): string {
  const chosen = flag ?? (env.TOOLDIR_BASE_URL?.trim() || undefined) ?? stored ?? defaultBaseUrl;
  return normalizeBaseUrl(chosen);
}

/** Opens the config and resolves the address; no key needed (login, logout). */
export async function openSession(ctx: CliContext, globals: GlobalOptions): Promise<Session> {
  const store = new ConfigStore(configFilePath(ctx.env));
  const config = await store.read();
  return { store, config, baseUrl: resolveBaseUrl(globals.baseUrl, ctx.env, config.base_url), json: globals.json === true };
}

/** As openSession, plus the key (TOOLDIR_API_KEY beats the stored one) and an API client. */
export async function openKeyedSession(ctx: CliContext, globals: GlobalOptions): Promise<KeyedSession> {
  const session = await openSession(ctx, globals);
  const apiKey = ctx.env.TOOLDIR_API_KEY?.trim() || session.config.api_key;
  if (!apiKey) {
    throw new CliError('no_api_key', 'No API key. Run `tooldir login` or set TOOLDIR_API_KEY.');
  }
  return { ...session, client: new ApiClient({ baseUrl: session.baseUrl, apiKey, fetch: ctx.fetch }) };
}
