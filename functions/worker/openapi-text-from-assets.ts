// Build shim (wrangler.toml [alias] for './openapi-text', imported by functions/v1/docs/openapi.ts alone): the Worker
// serves openapi.json from the text the [build] command generated (functions/worker/openapi-template.ts, with the
// same generator and routes as the Node server), read through the ASSETS binding, with its own origin put in. So the
// Worker carries neither the generator nor zod-to-openapi's document code (about 7 KiB gzipped); the document is
// the same text Node serves (test/e2e/workerd/worker-bundle.test.ts compares them).
import { isAssetsBinding } from '../../src/adapters/disposable-domains/assets';
import { OPENAPI_TEMPLATE_ASSET_PATH, withOrigin } from '../v1/docs/openapi-template';

export async function openApiText(_app: unknown, origin: string, bindings: unknown): Promise<string> {
  const assets = (bindings as { ASSETS?: unknown } | undefined)?.ASSETS;
  if (!isAssetsBinding(assets)) throw new Error('openapi.json: the static assets binding ASSETS is missing');
  // The binding answers from the uploaded files; the host is never contacted.
  const res = await assets.fetch(new Request(`https://assets.invalid${OPENAPI_TEMPLATE_ASSET_PATH}`));
  if (!res.ok) throw new Error(`static asset ${OPENAPI_TEMPLATE_ASSET_PATH} answered ${res.status}`);
  return withOrigin(await res.text(), origin);
}
