// What an OAuth client is to us, whichever way it came (src/oauth/clients.ts). Its own module, imported by both
// kinds' code, so clients.ts and client-metadata-document.ts do not import each other.
import type { OAuthClientKind } from '../catalog/oauth-client-kinds';

export interface OAuthClient {
  id: string;
  kind: OAuthClientKind;
  /** What the client calls itself: unverified, shown as such. */
  name: string | null;
  redirectUris: string[];
}
