// The layers of tooldir, stated once by folder and held by CI (`npm run lint:deps`, run by .ci/run). The picture
// in words: docs/architecture.md.
//
//   functions/  src/cli/       the edges (HTTP, MCP, Stripe and QStash wire formats; the Node and Workers entries)
//                              and the tooldir command, a client of the API beside them
//     ↓
//   src/build-deps.ts          the composition root: picks each adapter from configuration (only the entries use it)
//     ↓
//   src/<capability>/          the rules, in the layers of CAPABILITY_LAYERS: each imports only the layers below it
//     ↓
//   src/crawler/               the safe crawler: a library of the capabilities that imports none of them
//     ↓
//   src/deps.ts src/adapters/ src/db/    the floor: the Deps type, infrastructure behind interfaces, the database
//     ↓
//   src/*.ts                   the shared leaf modules (config, errors, ids, crypto, log, ...)
//     ↓
//   src/catalog/               the catalogue: the tables of facts every layer reads (plans, tiers, closed lists)
//
// Arrows point down only, without exception: test/unit/dependency-rules.test.ts draws the repository by PICTURE and
// fails on any arrow that runs up a row.
// Ships as CommonJS (.cjs) because package.json says "type": "module" and dependency-cruiser loads a
// `module.exports` config.

const CATALOG = '^src/catalog/';
/** The shared leaf modules: every file directly in src/ except the Deps type and the composition root. */
const ROOT_LEAF = '^src/(?!(?:deps|build-deps)\\.ts$)[^/]+\\.ts$';
const DB = '^src/db/';
const ADAPTERS = '^src/adapters/';
const DEPS = '^src/deps\\.ts$';
const FLOOR = [DEPS, ADAPTERS, DB, ROOT_LEAF, CATALOG];
const CRAWLER = '^src/crawler/';
const CLI = '^src/cli/';
const BUILD_DEPS = '^src/build-deps\\.ts$';
/** Where a process starts: the only modules that may choose adapter implementations, build Deps and open a database. */
const ENTRIES = ['^functions/node\\.ts$', '^functions/worker\\.ts$', '^functions/node/', '^functions/worker/'];

/**
 * The capability folders of src/, top layer first. A folder imports only folders of the layers below its own, never
 * one of its own layer nor above (derived from the imports: each layer uses only what is below it).
 */
const CAPABILITY_LAYERS = [
  ['jobs', 'deploy'], // run and schedule the steps, purges and sweeps; migrate at deploy time
  ['idempotency', 'payments', 'pipeline', 'claims', 'health'], // drive a submission: replay a submit, apply a payment, crawl/review/publish, claim; re-check live tools
  ['submissions'], // a submission: submit, the rules, records, retry, edit, payment requests
  ['directory', 'oauth', 'stats', 'webhooks'], // what grows around a listing or an account
  ['domains'], // domains an account proves (DNS, HTTP, e-mail), read by the mark, claims and submissions
  ['accounts'], // identity: accounts, keys, memberships, sessions
  ['categories', 'media', 'rate-limits', 'mcp-servers'], // small capabilities that use no other
];
const capability = (folder) => `^src/${folder}/`;

/** The rows of the import picture, top first: every module of src/ and functions/ sits in exactly one. */
const PICTURE = [
  { row: 'edges and the CLI', paths: ['^functions/', CLI] },
  { row: 'composition root', paths: [BUILD_DEPS] },
  ...CAPABILITY_LAYERS.map((folders, i) => ({ row: `capability layer ${i + 1}`, paths: folders.map(capability) })),
  { row: 'crawler', paths: [CRAWLER] },
  { row: 'floor', paths: [DEPS, ADAPTERS, DB] },
  { row: 'leaf modules', paths: [ROOT_LEAF] },
  { row: 'catalogue', paths: [CATALOG] },
];

/** A layer may import only `allowed` of src/ (src-never-imports-functions keeps it out of functions/). */
function layer(name, comment, from, allowed) {
  return [{ name, comment, severity: 'error', from: { path: from }, to: { path: '^src/', pathNot: allowed } }];
}

/** Each capability folder may import the layers below its own, the crawler and the floor. */
const capabilityRules = CAPABILITY_LAYERS.flatMap((folders, i) =>
  folders.map((folder) => ({
    name: 'capabilities-import-only-lower-layers',
    comment:
      `src/${folder}/ (capability layer ${i + 1}) imports only the capability layers below it ` +
      `(${
        CAPABILITY_LAYERS.slice(i + 1)
          .flat()
          .join(', ') || 'none'
      }), the crawler and the floor; ` +
      'capabilities of one layer never import each other, so no two can come to need each other.',
    severity: 'error',
    from: { path: capability(folder) },
    to: {
      path: CAPABILITY_LAYERS.slice(0, i + 1)
        .flat()
        .filter((other) => other !== folder)
        .map(capability),
    },
  })),
);

/** What other folders may import from src/crawler/: what it offers, not its parsing and checking internals. */
const CRAWLER_PUBLIC = [
  'index', // the crawl (crawlPage, checkTarget, the metadata and failure types)
  'safe-fetch', // the checked fetch that media, OAuth metadata documents and webhook deliveries reuse
  'read-body', // the bounded body reader that goes with it
  'crawl-page', // CRAWL_DEFAULTS (the limits others state in their own errors)
  'crawl-result', // the crawl's outcome types (CrawlResult, CrawlFailure, PageMetadata)
  'crawl-failures', // the failure a caller classifies
  'crawl-error-messages', // the one table of what a submitter is told
  'check-page', // the re-check's polite fetch of a live tool and its robots.txt (src/health/)
  'reserved-names', // the resolver wrapper the composition root and the Node entry install
  'mcp-probe', // the MCP probe of a listing's server (src/mcp-servers/)
  'pinned-fetch', // Node only: the Node entry's connection-pinning fetch (never in the Worker bundle)
].map((file) => `^src/crawler/${file}\\.ts$`);

/** What the CLI shares with the server: pure schemas and words, no verb, no database, no adapter. */
const CLI_SHARED = [
  '^src/submissions/(record-schemas|edit-input|submit-input|progress-words|url)\\.ts$',
  '^src/categories/(category-schemas|category-rules)\\.ts$',
  '^src/stats/(stats-schemas|click-through)\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'No import circles, type-only ones included (tsPreCompilationDeps): a circle has no bottom to read from.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-never-imports-functions',
      comment: 'src/ knows nothing of HTTP, MCP or the entries: functions/ calls src/, never the other way round.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^functions/' },
    },
    ...layer(
      'catalog-imports-nothing',
      'src/catalog/ holds tables of facts (plans and tiers, limits, closed lists of states and kinds) that every layer, ' +
        'the CLI included, reads; it imports nothing, so reading it never pulls anything else in.',
      CATALOG,
      [CATALOG],
    ),
    ...layer(
      'leaf-modules-stay-leaves',
      'The shared leaf modules (config, errors, ids, crypto, log, ...) import only each other and the catalogue: ' +
        'anyone may import them.',
      ROOT_LEAF,
      [ROOT_LEAF, CATALOG],
    ),
    ...layer(
      'db-imports-no-capability',
      'src/db/ (schema, clients, SQL helpers) is the floor: it imports no capability, so every capability can use it.',
      DB,
      [DB, ROOT_LEAF, CATALOG],
    ),
    ...layer(
      'adapters-import-no-service',
      'An adapter (payments, queue, mail, media, ...) is infrastructure behind an interface: it may use the database ' +
        'and the leaf modules, never a capability (a service).',
      ADAPTERS,
      [ADAPTERS, DB, ROOT_LEAF, CATALOG],
    ),
    ...layer(
      'deps-names-only-the-floor',
      'src/deps.ts is the type every verb receives; it names adapters, the database and leaf modules only.',
      DEPS,
      [ADAPTERS, DB, ROOT_LEAF, CATALOG],
    ),
    {
      name: 'deps-imports-only-types',
      comment: 'src/deps.ts keeps only types; what builds Deps (and so imports implementations) is src/build-deps.ts.',
      severity: 'error',
      from: { path: DEPS },
      to: { path: '^src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-entries-build-deps',
      comment:
        'The composition root is used by the entries alone (Node, Workers); a verb receives Deps, it never builds them.',
      severity: 'error',
      from: { path: '^(src|functions)/', pathNot: ENTRIES },
      to: { path: BUILD_DEPS },
    },
    {
      name: 'adapter-implementations-are-chosen-by-the-root',
      comment:
        "Capabilities and routes see an adapter through its interface (types.ts; the resolver's resolver.ts); only the " +
        'composition root and the entries pick an implementation. Also shared: the media key shape every store checks ' +
        "(media-key.ts), and the Node pinned fetch the crawler's own Node-only pinned-fetch.ts wraps with its policy.",
      severity: 'error',
      from: {
        path: '^(src|functions)/',
        pathNot: [ADAPTERS, BUILD_DEPS, ...ENTRIES, '^src/crawler/pinned-fetch\\.ts$'],
      },
      to: {
        path: ADAPTERS,
        pathNot: [
          '^src/adapters/[^/]+/types\\.ts$',
          '^src/adapters/resolver/resolver\\.ts$',
          '^src/adapters/media/media-key\\.ts$',
          '^src/adapters/page-cache/listing-version\\.ts$',
        ],
      },
    },
    {
      name: 'adapter-implementations-are-chosen-by-the-root',
      comment:
        "The crawler's Node fetch (src/crawler/pinned-fetch.ts, imported by the Node entry only) wraps the pinned-fetch adapter.",
      severity: 'error',
      from: { path: '^src/crawler/pinned-fetch\\.ts$' },
      to: {
        path: ADAPTERS,
        pathNot: ['^src/adapters/[^/]+/types\\.ts$', '^src/adapters/resolver/(resolver|node-pinned-fetch)\\.ts$'],
      },
    },
    ...layer(
      'crawler-imports-no-capability',
      'src/crawler/ is a library of the capabilities (the crawl, the checked fetch, failure kinds and their words): it ' +
        'knows nothing of submissions, media or webhooks that use it, and imports only the floor.',
      CRAWLER,
      [CRAWLER, ...FLOOR],
    ),
    ...capabilityRules,
    {
      name: 'crawler-through-its-public-modules',
      comment:
        'Outside src/crawler/, import what the crawler offers (CRAWLER_PUBLIC), not its address checks, HTML ' +
        'scanning or abort plumbing: those change without notice.',
      severity: 'error',
      from: { path: '^(src|functions)/', pathNot: '^src/crawler/' },
      to: { path: '^src/crawler/', pathNot: CRAWLER_PUBLIC },
    },
    {
      name: 'cli-is-a-client',
      comment:
        'The tooldir command talks to the API over HTTP: it shares leaf modules, the catalogue and pure schemas ' +
        '(CLI_SHARED) with the server, never a verb, the database, an adapter or Deps.',
      severity: 'error',
      from: { path: CLI },
      to: { path: '^src/', pathNot: [CLI, ROOT_LEAF, CATALOG, ...CLI_SHARED] },
    },
    {
      name: 'only-the-cli-imports-the-cli',
      comment:
        'src/cli/ is the tooldir command and nothing else: the server never runs its code (bin/cli/tooldir.js does).',
      severity: 'error',
      from: { path: '^(src|functions)/', pathNot: CLI },
      to: { path: CLI },
    },
    {
      name: 'routes-never-import-the-database',
      comment:
        'A route under functions/ parses, calls one verb and maps its answer; the verb reads and writes the database. ' +
        'Only the entries (ENTRIES) open a database, to build Deps.',
      severity: 'error',
      from: { path: '^functions/', pathNot: ENTRIES },
      to: { path: DB },
    },
  ],
  options: {
    // Our own modules only: npm packages are not layers, and not following them keeps the run to seconds offline.
    includeOnly: '^(src|functions)/',
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too: a circle through `import type` is still a circle to the reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};

// The rows of the import picture, for test/unit/dependency-rules.test.ts, which draws the repository by them and
// fails on any arrow that runs up. Not enumerable: dependency-cruiser's config admits no other key.
Object.defineProperties(module.exports, {
  picture: { value: PICTURE },
  capabilityLayers: { value: CAPABILITY_LAYERS },
});
