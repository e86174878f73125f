import { type AssetsBinding, readStaticAsset } from '../static-assets';
import { createPublicSuffixes } from './list';
import { PUBLIC_SUFFIXES_ASSET_PATH, type PublicSuffixes } from './types';

/** Workers: the rules from the Worker's own static assets (the `ASSETS` binding of wrangler.toml [assets]). */
export function createAssetPublicSuffixes(assets: AssetsBinding): PublicSuffixes {
  return createPublicSuffixes(async () => (await readStaticAsset(assets, PUBLIC_SUFFIXES_ASSET_PATH)).json());
}
