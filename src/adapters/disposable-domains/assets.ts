import { type AssetsBinding, readStaticAsset } from '../static-assets';
import { createDisposableDomains } from './list';
import { DISPOSABLE_DOMAINS_ASSET_PATH, type DisposableDomains } from './types';

/** Workers: the list from the Worker's own static assets (the `ASSETS` binding of wrangler.toml [assets]). */
export function createAssetDisposableDomains(assets: AssetsBinding): DisposableDomains {
  return createDisposableDomains(async () => (await readStaticAsset(assets, DISPOSABLE_DOMAINS_ASSET_PATH)).json());
}
