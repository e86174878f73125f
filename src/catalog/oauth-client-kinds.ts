// How an OAuth client of the MCP endpoint came to be (oauth_clients.kind): the schema types its column with it, the
// OAuth verbs and the operator API read it.

/** How an OAuth client came to be: Dynamic Client Registration, or a Client ID Metadata Document fetched by its URL. */
export const oauthClientKinds = ['registered', 'metadata_document'] as const;
export type OAuthClientKind = (typeof oauthClientKinds)[number];
