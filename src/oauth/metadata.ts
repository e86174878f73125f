// The two discovery documents an MCP client reads first (MCP authorization spec, revisions 2025-06-18 and 2025-11-25).
import type { OAuthMetadata, OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { ALL_SCOPES } from './scopes';
import { OAUTH_PATHS, issuer, mcpResource } from './resource';

/** RFC 9728 protected resource metadata of /mcp: which authorization server to ask, and for which scopes. */
export function protectedResourceMetadata(origin: string): OAuthProtectedResourceMetadata {
  return {
    resource: mcpResource(origin),
    authorization_servers: [issuer(origin)],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'tooldir – AI tool directory',
    resource_documentation: `${origin}/llms.txt`,
  };
}

/**
 * RFC 8414 authorization server metadata. Public clients only (`none`), authorization code with PKCE S256
 * only, refresh tokens; clients may register (RFC 7591) or use an https URL as client_id (Client ID Metadata
 * Documents). `iss` is added to every authorization response (RFC 9207) against mix-up attacks.
 */
export function authorizationServerMetadata(origin: string): OAuthMetadata {
  return {
    issuer: issuer(origin),
    authorization_endpoint: `${origin}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${origin}${OAUTH_PATHS.token}`,
    registration_endpoint: `${origin}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${origin}${OAUTH_PATHS.revoke}`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/llms.txt`,
  };
}
