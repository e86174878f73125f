// GET /oauth/authorize and the consent page share this check, so what the person approves is exactly what
// was asked (OAuth 2.1 §4.1.1, RFC 7636, RFC 8707). Every failure is shown to the person on our own page and
// nothing is redirected: anyone can register a client with any redirect URI, so redirecting an error before the
// person has consented would make this server an open redirector (RFC 9700 §4.11). Only the person's own
// decision (allow, or deny: access_denied) goes back to the client.
import type { Deps } from '../deps';
import { findClient } from './clients';
import type { OAuthClient } from './oauth-client';
import { isCodeChallenge } from './pkce';
import { redirectUriMatches, redirectUriProblem } from './redirect-uris';
import { issuer, isOurResource, mcpResource } from './resource';
import { parseScope, unknownScopeMessage, type Scope } from './scopes';

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  /** Optional (OAuth 2.1 §4.1.1: PKCE protects the flow); when given it goes back unchanged. */
  state: string | undefined;
  codeChallenge: string;
  scopes: Scope[];
  /** Always our /mcp URL: an absent `resource` means it (the only resource this server has). */
  resource: string;
}

/**
 * The OAuth code of a failure (RFC 6749 §4.1.2.1, RFC 8707; invalid_client for a client we cannot identify, as
 * the MCP spec's flow names it), shown on the page so the app's maker can look it up.
 */
export type AuthorizationErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target';

export type AuthorizationCheck =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; error: AuthorizationErrorCode; message: string };

const MAX_STATE_LENGTH = 1000;
const SINGLE = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
];

/** Checks an authorization request's parameters against the client it names and our one resource. */
export async function checkAuthorizationRequest(deps: Deps, params: URLSearchParams): Promise<AuthorizationCheck> {
  const fail = (error: AuthorizationErrorCode, message: string): AuthorizationCheck => ({ ok: false, error, message });
  const repeated = SINGLE.find((name) => params.getAll(name).length > 1);
  if (repeated) return fail('invalid_request', `The request names ${repeated} more than once.`);
  const found = await findClient(deps, params.get('client_id') ?? undefined);
  if (!found.ok) return fail('invalid_client', found.message);
  const redirectUri = params.get('redirect_uri');
  if (!redirectUri) return fail('invalid_request', 'redirect_uri is missing: the app must say where to return.');
  if (!redirectUriMatches(found.client.redirectUris, redirectUri)) {
    return fail('invalid_request', 'redirect_uri is not one this app registered, so we cannot send you back to it.');
  }
  // A registration or cached metadata document older than today's rules is held to them too.
  if (redirectUriProblem(redirectUri))
    return fail('invalid_request', 'redirect_uri is one this server no longer accepts; the app must register again.');
  if (params.get('response_type') !== 'code')
    return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const challenge = params.get('code_challenge') ?? '';
  if (params.get('code_challenge_method') !== 'S256' || !isCodeChallenge(challenge)) {
    return fail(
      'invalid_request',
      'PKCE is required: code_challenge (43 base64url characters) with code_challenge_method=S256.',
    );
  }
  const state = params.get('state') ?? undefined;
  if (state !== undefined && state.length > MAX_STATE_LENGTH)
    return fail('invalid_request', `state must be at most ${MAX_STATE_LENGTH} characters.`);
  const resource = params.get('resource');
  if (resource !== null && !isOurResource(resource, deps.origin)) {
    return fail(
      'invalid_target',
      `resource must be ${mcpResource(deps.origin)}, the only resource this server issues tokens for.`,
    );
  }
  const scope = parseScope(params.get('scope') ?? undefined);
  if (!scope.ok) return fail('invalid_scope', unknownScopeMessage(scope.unknown));
  const request = {
    client: found.client,
    redirectUri,
    state,
    codeChallenge: challenge,
    scopes: scope.scopes,
    resource: mcpResource(deps.origin),
  };
  return { ok: true, request };
}

/** The client's redirect URI with response parameters added (its own query kept) and `iss` (RFC 9207). */
export function authorizationResponseUrl(
  origin: string,
  redirectUri: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer(origin));
  return url.href;
}
