// An agent as a person first meets it: registered on a running server (a public client with a loopback redirect
// that nothing listens on), and the authorization request that leads a browser to the consent page.
import { s256Challenge } from '../../src/oauth/pkce';

/** Registers `clientName` at `baseUrl` and returns the `/oauth/authorize?…` path that asks for `tools:read`. */
export async function consentRequestPath(baseUrl: string, clientName: string): Promise<string> {
  const redirectUri = 'http://127.0.0.1:9/callback';
  const registered = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: clientName, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' }),
  });
  if (registered.status !== 201) throw new Error(`registering ${clientName} answered ${registered.status}`);
  const { client_id } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({
    response_type: 'code',
    client_id,
    redirect_uri: redirectUri,
    code_challenge: s256Challenge('a'.repeat(64)),
    code_challenge_method: 'S256',
    scope: 'tools:read',
  });
  return `/oauth/authorize?${query}`;
}
