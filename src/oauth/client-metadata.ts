// The rules every client description must pass, whether it arrives by registration (RFC 7591) or as a
// Client ID Metadata Document: public clients using the authorization code grant, safe redirect URIs.
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { MAX_REDIRECT_URIS, redirectUriProblem, shownUri } from './redirect-uris';
import { hasInvisibleCharacters, visibleCharacterCount } from '../printable-text';

export const MAX_CLIENT_NAME_LENGTH = 100;

export interface CheckedClientMetadata {
  name: string | null;
  redirectUris: string[];
}

/** The RFC 7591 §3.2.2 error codes a client description can earn. */
export type ClientMetadataError = { error: 'invalid_redirect_uri' | 'invalid_client_metadata'; message: string };

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

/**
 * Checks a client description. Redirect URIs are judged first, by our own rule (so the answer names the
 * offending URI); the other fields are parsed with the MCP SDK's RFC 7591 schema, then held to what this
 * server supports. A requested token_endpoint_auth_method other than `none` is not refused: there are no
 * client secrets here, and RFC 7591 §3.2.1 lets the server substitute the value it supports.
 */
export function checkClientMetadata(
  raw: unknown,
  {
    nameRefusedUri = true,
  }: {
    /** false where the answer is a page others may be sent to: the URI is not repeated there. */ nameRefusedUri?: boolean;
  } = {},
): { ok: true; value: CheckedClientMetadata } | ({ ok: false } & ClientMetadataError) {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    return refuse('invalid_client_metadata', 'The client metadata must be a JSON object.');
  const uris = (raw as { redirect_uris?: unknown }).redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0)
    return refuse('invalid_redirect_uri', 'redirect_uris must be a non-empty array of URIs.');
  if (uris.length > MAX_REDIRECT_URIS)
    return refuse('invalid_redirect_uri', `At most ${MAX_REDIRECT_URIS} redirect_uris are accepted.`);
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem)
      return refuse(
        'invalid_redirect_uri',
        `Refused redirect URI${nameRefusedUri ? ` ${shownUri(uri)}` : ''}: ${problem}.`,
      );
  }
  const parsed = OAuthClientMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refuse('invalid_client_metadata', `${issue?.path.join('.') || 'metadata'}: ${issue?.message ?? 'invalid'}.`);
  }
  const metadata = parsed.data;
  if (metadata.grant_types?.some((g) => !GRANT_TYPES.has(g))) {
    return refuse('invalid_client_metadata', 'grant_types may only contain authorization_code and refresh_token.');
  }
  if (metadata.response_types?.some((r) => r !== 'code'))
    return refuse('invalid_client_metadata', 'response_types may only contain code.');
  const given = metadata.client_name;
  // Checked before whitespace is collapsed: a tab, a newline or a byte-order mark must not slip through as a space.
  if (given !== undefined && !given.isWellFormed())
    return refuse('invalid_client_metadata', 'client_name is not well-formed Unicode text.');
  // The consent page shows the name a client gives itself: bidi overrides (U+202E), zero-width joiners or soft
  // hyphens would make it read as something else, so format characters are refused too.
  if (given !== undefined && hasInvisibleCharacters(given)) {
    return refuse(
      'invalid_client_metadata',
      'client_name must not contain control or format characters (such as U+202E, which reverses the text after it).',
    );
  }
  const name = given?.replace(/\s+/g, ' ').trim();
  if (name !== undefined && name.length > MAX_CLIENT_NAME_LENGTH) {
    return refuse(
      'invalid_client_metadata',
      `client_name must be printable text of at most ${MAX_CLIENT_NAME_LENGTH} characters.`,
    );
  }
  // A name with nothing a reader sees (blanks, fillers such as U+2800, lone marks) is no name: the consent page then
  // says "An unnamed app" instead of showing an empty gap where the app's name should be.
  const shown = name !== undefined && visibleCharacterCount(name) > 0 ? name : null;
  return { ok: true, value: { name: shown, redirectUris: [...new Set(uris as string[])] } };
}

const refuse = (error: ClientMetadataError['error'], message: string) => ({ ok: false as const, error, message });
