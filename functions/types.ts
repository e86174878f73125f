import type { Deps } from '../src/deps';
import type { Actor } from '../src/accounts/actor';

/** Hono environment shared by every function: per-request deps and, once authenticated, the actor. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    actor: Actor;
    requestId: string;
    /** Set false by a request that changed no status, so it skips the webhook outbox dispatch (announce-status-changes.ts). */
    announceStatusChanges?: boolean;
    /** Set by the page cache on the routes it sits on (middleware/page-cache.ts); cacheableAnswer reads and fills it. */
    pageCache?: import('./middleware/page-cache').PageCacheState;
  };
}

/** What the entry (Node or Workers) tells the app about its runtime. */
export interface AppOptions {
  /** Extra routes mounted by a build (the benchmark floor route). */
  extraRoutes?: (app: import('@hono/zod-openapi').OpenAPIHono<AppEnv>) => void;
  /** Serves /api/v1/docs/assets/* (Node: from node_modules). Workers leave it out: static assets answer first. */
  docsAssets?: DocsAssetSource;
  /** The sitemap's URLs per file (default 50,000); tests lower it to reach the index form (docs/seo.md). */
  sitemap?: import('./pages/sitemap').SitemapOptions;
}

/** A file served under /api/v1/docs/assets/, by its name there; null when there is no such file. */
export type DocsAssetSource = (name: string) => Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string } | null>;
