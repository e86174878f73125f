// Build shim (wrangler.toml [alias] for './openapi-text', imported by functions/v1/docs/openapi.ts alone): the Worker
// serves openapi.json from the text the [build] command generated (functions/worker/openapi-template.ts, with the
// same generator and routes as the Node server), read through the ASSETS binding, with its own origin put in. So the
// Worker carries neither the generator nor zod-to-openapi's document code (about 7 KiB gzipped); the document is
// the same text Node serves (test/e2e/workerd/worker-bundle.test.ts compares them).
import { assetsIn, readStaticAsset } from '../../src/adapters/static-assets';
import { OPENAPI_TEMPLATE_ASSET_PATH, withOrigin } from '../v1/docs/openapi-template';

export async function openApiText(_app: unknown, origin: string, bindings: unknown): Promise<string> {
  const res = await readStaticAsset(assetsIn(bindings, 'openapi.json'), OPENAPI_TEMPLATE_ASSET_PATH);
  return withOrigin(await res.text(), origin);
}
