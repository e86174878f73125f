import { createDisposableDomains } from './list';
import { DISPOSABLE_DOMAINS_ASSET_PATH, type DisposableDomains } from './types';

/** Workers: the list from the Worker's own static assets (the `ASSETS` binding of wrangler.toml [assets]). */
export function createAssetDisposableDomains(assets: {
  fetch: (request: Request) => Promise<Response>;
}): DisposableDomains {
  return createDisposableDomains(async () => {
    // The binding answers from the uploaded files; the host is never contacted.
    const res = await assets.fetch(new Request(`https://assets.invalid${DISPOSABLE_DOMAINS_ASSET_PATH}`));
    if (!res.ok) throw new Error(`static asset ${DISPOSABLE_DOMAINS_ASSET_PATH} answered ${res.status}`);
    return res.json();
  });
}

/** Whether a binding can serve files (a Fetcher), so the Worker entry can name a missing ASSETS binding. */
export const isAssetsBinding = (value: unknown): value is { fetch: (request: Request) => Promise<Response> } =>
  typeof value === 'object' && value !== null && typeof (value as { fetch?: unknown }).fetch === 'function';
