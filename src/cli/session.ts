// Resolves what every command needs: the service address, the key, the config store and a client.
import { ApiClient } from './api-client';
import { CliError, usageError } from './cli-error';
import { ConfigStore, configFilePath, type CliConfig } from './config-store';
import type { CliContext } from './context';
import { isLoopbackHostname } from '../origin';

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
  return {
    store,
    config,
    baseUrl: resolveBaseUrl(globals.baseUrl, ctx.env, config.base_url),
    json: globals.json === true,
  };
}

/**
 * As openSession, plus the key and an API client. TOOLDIR_API_KEY beats the stored key and goes to the address
 * chosen for this run. The stored key goes only to the origin it was checked against at login: another
 * --base-url or TOOLDIR_BASE_URL never receives it (DECISIONS.md "CLI"). No key goes over plain http except to
 * this machine.
 */
export async function openKeyedSession(ctx: CliContext, globals: GlobalOptions): Promise<KeyedSession> {
  const session = await openSession(ctx, globals);
  const envKey = ctx.env.TOOLDIR_API_KEY?.trim();
  const apiKey = envKey || session.config.api_key;
  if (!apiKey) {
    throw new CliError('no_api_key', 'No API key. Run `tooldir login` or set TOOLDIR_API_KEY.');
  }
  if (!envKey) checkStoredKeyOrigin(session.config, session.baseUrl);
  checkKeyTransport(session.baseUrl);
  return { ...session, client: new ApiClient({ baseUrl: session.baseUrl, apiKey, fetch: ctx.fetch }) };
}

/** The stored key belongs to the origin it was stored for; anywhere else, say so and ask for a login there. */
function checkStoredKeyOrigin(config: CliConfig, baseUrl: string): void {
  const target = new URL(baseUrl).origin;
  const relogin = `Run \`tooldir login --base-url ${baseUrl}\` to store a key for it (or set TOOLDIR_API_KEY for one run).`;
  if (config.key_origin === undefined) {
    throw new CliError(
      'key_origin_unknown',
      'The stored key was saved by an older tooldir that did not record which service it belongs to, so it is not sent anywhere.',
      {
        extraLines: [relogin],
      },
    );
  }
  if (config.key_origin !== target) {
    throw new CliError(
      'key_for_other_origin',
      `The stored key belongs to ${config.key_origin}; it is not sent to ${target}.`,
      { extraLines: [relogin] },
    );
  }
}

/** A key never travels over plain http, except to this machine (localhost, 127.0.0.0/8, [::1]). */
export function checkKeyTransport(baseUrl: string): void {
  const url = new URL(baseUrl);
  if (url.protocol === 'http:' && !isLoopbackHostname(url.hostname)) {
    throw new CliError(
      'insecure_base_url',
      `Refusing to send an API key over plain http to ${url.host}: use https://${url.host}.`,
      {
        exitCode: 2,
        extraLines: ['Plain http is allowed only to this machine (localhost, 127.0.0.0/8, [::1]).'],
      },
    );
  }
}
