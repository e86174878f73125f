/** The address of a tool's outbound link (functions/pages/go.ts): every "Visit" link of our pages points here. */
export const outboundPath = (slug: string) => `/go/${encodeURIComponent(slug)}`;
