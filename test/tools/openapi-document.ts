// openapi.json as GET /api/v1/openapi.json serves it (SITE_ORIGIN https://tooldir.example), without a database or a
// server, and the TypeScript openapi-typescript generates from it: for the contract's lint runs (lint-contract.ts)
// and tests. Run directly, it prints the document:
//   npx tsx test/tools/openapi-document.ts > openapi.json
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadConfig } from '../../src/config';
import { buildDeps } from '../../src/build-deps';
import type { Db } from '../../src/db/client';
import { createLogger } from '../../src/log';
import { createApp } from '../../functions/app';

export const DOCUMENT_ORIGIN = 'https://tooldir.example';

/** The served document, parsed. */
export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({
    DATA_DIR: '/nonexistent',
    SITE_ORIGIN: DOCUMENT_ORIGIN,
    ADMIN_TOKEN: 'openapi-document-only-0123456789',
    LOG_LEVEL: 'silent',
  });
  // Generating the document reads no table: a database that refuses every call proves it.
  const noDatabase = new Proxy(
    {},
    {
      get: () => {
        throw new Error('openapi-document: no database');
      },
    },
  ) as Db;
  const app = createApp(buildDeps(config, noDatabase, { log: createLogger('silent') }));
  const response = await app.request(`${DOCUMENT_ORIGIN}/api/v1/openapi.json`, {
    headers: { 'cf-connecting-ip': '127.0.0.1' },
  });
  if (response.status !== 200) throw new Error(`openapi.json answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as Record<string, unknown>;
}

/** What a client generated with openapi-typescript (its defaults) sees. */
export async function generateContractTypes(document?: Record<string, unknown>): Promise<string> {
  // openapi-typescript's own type for the document is stricter than a parsed JSON value.
  return astToString(
    await openapiTS((document ?? (await openApiDocument())) as unknown as Parameters<typeof openapiTS>[0]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(`${JSON.stringify(await openApiDocument(), null, 2)}\n`);
}
