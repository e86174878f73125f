// The layers of tooldir, stated once and held by CI (`npm run lint:deps`, run by .ci/run). The picture in words:
// docs/architecture.md.
//
//   functions/                 the edges: HTTP, MCP, Stripe and QStash wire formats; the Node and Workers entries
//     ↓
//   src/build-deps.ts          the composition root: picks each adapter from configuration (only the entries use it)
//     ↓
//   src/<capability>/          the rules: submissions, pipeline, crawler, jobs, payments, accounts, directory, ...
//     ↓
//   src/{db,adapters}/, src/deps.ts (the Deps type a verb receives), and the shared leaf modules src/*.ts
//
// Arrows point down only. The exceptions are listed in UPWARD below, each with its reason; keep that list short.
// The CLI (src/cli/) is a client, not a layer of the server: it shares leaf modules with it, never a verb.
// Ships as CommonJS (.cjs) because package.json says "type": "module" and dependency-cruiser loads a
// `module.exports` config.

/** The shared leaf modules: every file directly in src/ except the Deps type and the composition root. */
const ROOT_LEAF = '^src/(?!(?:deps|build-deps)\\.ts$)[^/]+\\.ts$';
/**
 * Leaf modules that live in a capability's folder because they belong to it (a table of facts that imports no
 * other capability), so the floor and the CLI may read them. They are held to the leaf rule like the root ones.
 */
const CAPABILITY_LEAVES = ['^src/catalog/'];
const LEAF = [ROOT_LEAF, ...CAPABILITY_LEAVES];
const DB = '^src/db/';
const ADAPTERS = '^src/adapters/';
const DEPS = '^src/deps\\.ts$';
const BUILD_DEPS = '^src/build-deps\\.ts$';
/** Where a process starts: the only modules that may choose adapter implementations and build Deps. */
const ENTRIES = ['^functions/node\\.ts$', '^functions/worker\\.ts$', '^functions/node/', '^functions/worker/'];

/**
 * The arrows that point up, each allowed by name. At most two; a new one needs a reason as good as these.
 */
const UPWARD = [
  {
    name: 'schema-reads-the-crawl-failure-kinds',
    from: '^src/db/schema/sites\\.ts$',
    to: '^src/crawler/crawl-result\\.ts$',
    why:
      "The sites table types crawl_error_kind (drizzle text enum) with crawlFailureKinds, the crawler's closed list, " +
      'so the list is declared once (where failures are made) and the schema cannot drift from it.',
  },
  {
    name: 'deps-carries-the-key-cache',
    from: DEPS,
    to: '^src/accounts/key-cache\\.ts$',
    why:
      'Deps holds the process-wide cache of verified API keys; its type lives with the keys it caches ' +
      '(src/accounts/). Type-only (the rule deps-imports-only-types holds it), so no code runs upward.',
  },
];

/**
 * A layer may import only `allowed`; the UPWARD arrows leaving this layer are carved out of the rule and
 * checked on their own (same rule name), so each exception allows exactly one arrow.
 */
function layer(name, comment, from, allowed) {
  const froms = [from].flat();
  const exceptions = UPWARD.filter((arrow) => froms.some((path) => new RegExp(path).test(arrow.from.replace(/^\^|\\|\$$/g, ''))));
  return [
    {
      name,
      comment,
      severity: 'error',
      from: { path: from, pathNot: exceptions.map((arrow) => arrow.from) },
      to: { path: '^(src|functions)/', pathNot: allowed },
    },
    ...exceptions.map((arrow) => ({
      name,
      comment: `${comment} Exception ${arrow.name}: ${arrow.why}`,
      severity: 'error',
      from: { path: arrow.from },
      to: { path: '^(src|functions)/', pathNot: [...allowed, arrow.to] },
    })),
  ];
}

/** What other folders may import from src/crawler/: what it offers, not its parsing and checking internals. */
const CRAWLER_PUBLIC = [
  'index', // the crawl (crawlPage, checkTarget, the metadata and failure types)
  'safe-fetch', // the checked fetch that media, OAuth metadata documents and webhook deliveries reuse
  'read-body', // the bounded body reader that goes with it
  'crawl-page', // CRAWL_DEFAULTS (the limits others state in their own errors)
  'crawl-result', // the closed list of failure kinds
  'crawl-failures', // the failure a caller classifies
  'crawl-error-messages', // the one table of what a submitter is told
  'reserved-names', // the resolver wrapper the composition root and the Node entry install
  'pinned-fetch', // Node only: the Node entry's connection-pinning fetch (never in the Worker bundle)
].map((file) => `^src/crawler/${file}\\.ts$`);

/** What the CLI shares with the server: pure schemas and words, no verb, no database, no adapter. */
const CLI_SHARED = [
  '^src/submissions/(record-schemas|edit-input|submit-input|progress-words|url)\\.ts$',
  '^src/categories/(category-schemas|category-rules)\\.ts$',
  '^src/stats/(stats-schemas|utc-day|click-through)\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circles, type-only ones included (tsPreCompilationDeps): a circle has no bottom to read from.',
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
      'leaf-modules-stay-leaves',
      'The shared leaf modules (config, errors, ids, crypto, log, ...) import only each other: anyone may import them.',
      LEAF,
      LEAF,
    ),
    ...layer(
      'db-imports-no-capability',
      'src/db/ (schema, clients, SQL helpers) is the floor: it imports no capability, so every capability can use it.',
      DB,
      [DB, ...LEAF],
    ),
    ...layer(
      'adapters-import-no-service',
      'An adapter (payments, queue, mail, media, ...) is infrastructure behind an interface: it may use the database ' +
        'and the leaf modules, never a capability (a service).',
      ADAPTERS,
      [ADAPTERS, DB, ...LEAF],
    ),
    ...layer(
      'deps-names-only-the-floor',
      'src/deps.ts is the type every verb receives; it names adapters, the database and leaf modules only.',
      DEPS,
      [ADAPTERS, DB, ...LEAF],
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
      comment: 'The composition root is used by the entries alone (Node, Workers); a verb receives Deps, it never builds them.',
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
      from: { path: '^(src|functions)/', pathNot: [ADAPTERS, BUILD_DEPS, ...ENTRIES, '^src/crawler/pinned-fetch\\.ts$'] },
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
      comment: "The crawler's Node fetch (src/crawler/pinned-fetch.ts, imported by the Node entry only) wraps the pinned-fetch adapter.",
      severity: 'error',
      from: { path: '^src/crawler/pinned-fetch\\.ts$' },
      to: { path: ADAPTERS, pathNot: ['^src/adapters/[^/]+/types\\.ts$', '^src/adapters/resolver/(resolver|node-pinned-fetch)\\.ts$'] },
    },
    {
      name: 'jobs-schedule-capabilities-never-the-reverse',
      comment:
        'src/jobs/ runs a job and the sweep over the pipeline, webhooks and purges; no capability imports its own scheduler.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/jobs/' },
      to: { path: '^src/jobs/' },
    },
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
        'The tooldir command talks to the API over HTTP: it shares leaf modules and pure schemas (CLI_SHARED) with the ' +
        'server, never a verb, the database, an adapter or Deps.',
      severity: 'error',
      from: { path: '^src/cli/' },
      to: { path: '^src/', pathNot: ['^src/cli/', ...LEAF, ...CLI_SHARED] },
    },
  ],
  options: {
    // Our own modules only: npm packages are not layers, and not following them keeps the run to seconds offline.
    includeOnly: '^(src|functions)/',
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are arrows too: a circle through `import type` is still a circle to the reader.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    skipAnalysisNotInRules: true,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
