// Bundles a module the way wrangler resolves the Worker's imports (its export conditions and every [alias] of
// wrangler.toml, matched on the exact import specifier as wrangler's alias plugin does), so a test can load in Node
// the variant of a package that the Worker carries (e.g. stripe-node with only the resources it calls).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';

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

const BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  // wrangler's defaults (getBuildConditions) and the fields a neutral build needs to find packages' entries.
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  logLevel: 'silent',
};

/** wrangler's alias plugin: an import whose specifier is exactly a key of [alias] resolves to its file. */
function aliasPlugin(aliases: Record<string, string>): Plugin {
  return {
    name: 'wrangler-alias',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        const target = aliases[args.path];
        return target ? { path: target } : undefined;
      });
    },
  };
}

/** Bundles `source` (module text resolved from the repository root) into `outFile`, an ES module Node can import. */
export async function bundleLikeWorker(source: string, outFile: string): Promise<void> {
  await build({
    ...BUILD_OPTIONS,
    stdin: { contents: source, resolveDir: root, sourcefile: 'worker-build-entry.js' },
    outfile: outFile,
    plugins: [aliasPlugin(wranglerAliases())],
  });
}

/**
 * Every import in the Worker's bundle (functions/worker.ts) whose specifier is an [alias] key, with the module that
 * wrote it (relative to the root). Nothing is written; the [build] command's modules must exist (build-assets.ts).
 */
export async function aliasedImports(): Promise<Array<{ specifier: string; importer: string }>> {
  const aliases = wranglerAliases();
  const result = await build({
    ...BUILD_OPTIONS,
    entryPoints: [resolve(root, 'functions/worker.ts')],
    absWorkingDir: root,
    outfile: resolve(root, 'dist/worker-build/unwritten.js'),
    write: false,
    metafile: true,
    external: ['cloudflare:*', 'node:*'],
    plugins: [aliasPlugin(aliases)],
  });
  return Object.entries(result.metafile?.inputs ?? {}).flatMap(([importer, input]) =>
    input.imports
      .filter((i) => i.original !== undefined && i.original in aliases)
      .map((i) => ({ specifier: i.original as string, importer })),
  );
}
