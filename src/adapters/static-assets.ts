// The Worker's static assets (wrangler.toml [assets], binding ASSETS): the files the [build] command wrote
// (functions/worker/build-assets.ts) that the Worker reads itself: the disposable-mail domains, the Public Suffix
// List, openapi.json's template and the MCP tools' listing. One way to read them, for every such file.

/** A binding that serves files (a Fetcher). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/** Whether a binding can serve files, so a missing ASSETS binding is named rather than failing later. */
export const isAssetsBinding = (value: unknown): value is AssetsBinding =>
  typeof value === 'object' && value !== null && typeof (value as { fetch?: unknown }).fetch === 'function';

/** The ASSETS binding among a Worker's `bindings`; throws naming `reader` (what needed it) when it is missing. */
export function assetsIn(bindings: unknown, reader: string): AssetsBinding {
  const assets = (bindings as { ASSETS?: unknown } | undefined)?.ASSETS;
  if (!isAssetsBinding(assets)) throw new Error(`${reader}: the static assets binding ASSETS is missing`);
  return assets;
}

/** The answer of the static asset at `path`; throws when the binding does not serve it. */
export async function readStaticAsset(assets: AssetsBinding, path: string): Promise<Response> {
  // The binding answers from the uploaded files; the host is never contacted.
  const res = await assets.fetch(new Request(`https://assets.invalid${path}`));
  if (!res.ok) throw new Error(`static asset ${path} answered ${res.status}`);
  return res;
}
