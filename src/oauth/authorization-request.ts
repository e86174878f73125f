// GET /oauth/authorize and the consent page share this check, so what the person approves is exactly what
// was asked (OAuth 2.1 §4.1.1, RFC 7636, RFC 8707). Errors before the redirect URI is trusted are shown to the
// person; later ones go back to the client (RFC 6749 §4.1.2.1).
import type { Deps } from '../deps';
import { findClient, type OAuthClient } from './clients';
import { isCodeChallenge } from './pkce';
import { redirectUriMatches } from './redirect-uris';
import { issuer, mcpResource } from './resource';
import { parseScope, type Scope } from './scopes';

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scopes: Scope[];
  resource: string;
}

export type AuthorizationCheck =
  | { ok: true; request: AuthorizationRequest }
  /** No redirect URI we can trust: the person reads the message; nothing is sent anywhere. */
  | { ok: false; kind: 'page'; message: string }
  /** The client's own redirect URI, carrying error, error_description, state and iss. */
  | { ok: false; kind: 'redirect'; location: string };

const MAX_STATE_LENGTH = 1000;
const SINGLE = ['response_type', 'client_id', 'redirect_uri', 'state', 'scope', 'code_challenge', 'code_challenge_method', 'resource'];

/** Checks an authorization request's parameters against the client it names and our one resource. */
export async function checkAuthorizationRequest(deps: Deps, params: URLSearchParams): Promise<AuthorizationCheck> {
  if (params.getAll('client_id').length > 1 || params.getAll('redirect_uri').length > 1) {
    return { ok: false, kind: 'page', message: 'The request names client_id or redirect_uri more than once.' };
  }
  const found = await findClient(deps, params.get('client_id') ?? undefined);
  if (!found.ok) return { ok: false, kind: 'page', message: found.message };
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri) return { ok: false, kind: 'page', message: 'redirect_uri is missing: the app must say where to return.' };
  if (!redirectUriMatches(found.client.redirectUris, redirectUri)) {
    return { ok: false, kind: 'page', message: 'redirect_uri is not one this app registered, so we cannot send you back to it.' };
  }
  const rawState = params.get('state');
  const state = rawState && rawState.length <= MAX_STATE_LENGTH && params.getAll('state').length === 1 ? rawState : undefined;
  const back = (error: string, description: string): AuthorizationCheck => ({
    ok: false,
    kind: 'redirect',
    location: authorizationResponseUrl(deps.origin, redirectUri, { error, error_description: description, ...(state && { state }) }),
  });
  const repeated = SINGLE.find((name) => params.getAll(name).length > 1);
  if (repeated) return back('invalid_request', `${repeated} is given more than once.`);
  if (params.get('response_type') !== 'code') return back('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = params.get('code_challenge') ?? '';
  if (params.get('code_challenge_method') !== 'S256' || !isCodeChallenge(challenge)) {
    return back('invalid_request', 'PKCE is required: code_challenge (43 base64url characters) with code_challenge_method=S256.');
  }
  if (!state) return back('invalid_request', `state is required (at most ${MAX_STATE_LENGTH} characters).`);
  const resource = params.get('resource');
  if (resource !== mcpResource(deps.origin)) {
    return back('invalid_target', `resource must be ${mcpResource(deps.origin)}, the only resource this server issues tokens for.`);
  }
  const scope = parseScope(params.get('scope') ?? undefined);
  if (!scope.ok) return back('invalid_scope', `Unknown scope: ${scope.unknown.join(', ')}.`);
  return { ok: true, request: { client: found.client, redirectUri, state, codeChallenge: challenge, scopes: scope.scopes, resource } };
}

/** The client's redirect URI with response parameters added (its own query kept) and `iss` (RFC 9207). */
export function authorizationResponseUrl(origin: string, redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer(origin));
  return url.href;
}
