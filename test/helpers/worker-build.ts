// Bundles a module the way wrangler resolves the Worker's imports (its export conditions and every [alias] of
// wrangler.toml, matched on the exact import specifier as wrangler's alias plugin does), so a test can load in Node
// the variant of a package that the Worker carries (e.g. stripe-node with only the resources it calls).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '../..');

/** wrangler.toml's [alias] table: import specifier -> file (absolute). */
export function wranglerAliases(): Record<string, string> {
  const toml = readFileSync(resolve(root, 'wrangler.toml'), 'utf8');
  const section = /^\[alias\]\n([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(toml)?.[1] ?? '';
  const aliases: Record<string, string> = {};
  for (const match of section.matchAll(/^"([^"]+)" = "([^"]+)"$/gm)) {
    aliases[match[1] as string] = resolve(root, match[2] as string);
  }
  return aliases;
}

/** Bundles `source` (module text resolved from the repository root) into `outFile`, an ES module Node can import. */
export async function bundleLikeWorker(source: string, outFile: string): Promise<void> {
  const aliases = wranglerAliases();
  await build({
    stdin: { contents: source, resolveDir: root, sourcefile: 'worker-build-entry.js' },
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    // wrangler's defaults (getBuildConditions) and the fields a neutral build needs to find packages' entries.
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['module', 'main'],
    logLevel: 'silent',
    plugins: [
      {
        name: 'wrangler-alias',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            const target = aliases[args.path];
            return target ? { path: target } : undefined;
          });
        },
      },
    ],
  });
}
