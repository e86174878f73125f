import { createPublicSuffixes } from './list';
import { PUBLIC_SUFFIXES_ASSET_PATH, type PublicSuffixes } from './types';

/** Workers: the rules from the Worker's own static assets (the `ASSETS` binding of wrangler.toml [assets]). */
export function createAssetPublicSuffixes(assets: { fetch: (request: Request) => Promise<Response> }): PublicSuffixes {
  return createPublicSuffixes(async () => {
    // The binding answers from the uploaded files; the host is never contacted.
    const res = await assets.fetch(new Request(`https://assets.invalid${PUBLIC_SUFFIXES_ASSET_PATH}`));
    if (!res.ok) throw new Error(`static asset ${PUBLIC_SUFFIXES_ASSET_PATH} answered ${res.status}`);
    return res.json();
  });
}
