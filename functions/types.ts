import type { Deps } from '../src/deps';
import type { Actor } from '../src/accounts/actor';
import type { SitemapOptions } from '../src/directory/sitemap';

// Imports nothing from functions/: every function imports this file, so an import back would close a circle.

/** Hono environment shared by every function: per-request deps and, once authenticated, the actor. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    actor: Actor;
    requestId: string;
    /** Set false by a request that changed no status, so it skips the webhook outbox dispatch (announce-status-changes.ts). */
    announceStatusChanges?: boolean;
    /** Set by the page cache on the routes it sits on (middleware/page-cache.ts); cacheableAnswer reads and fills it. */
    pageCache?: PageCacheState;
    /** This page's key in the page cache (middleware/page-cache-keys.ts), also its identity for counting impressions. */
    pageKey?: string;
    /** A submit's Idempotency-Key header, once read and checked (functions/v1/idempotency.ts). */
    idempotencyKey?: string;
  };
}

/** What the entry (Node or Workers) tells the app about its runtime. */
export interface AppOptions {
  /** Extra routes mounted by a build (the benchmark floor route). */
  extraRoutes?: (app: import('@hono/zod-openapi').OpenAPIHono<AppEnv>) => void;
  /** Serves /api/v1/docs/assets/* (Node: from node_modules). Workers leave it out: static assets answer first. */
  docsAssets?: DocsAssetSource;
  /** The sitemap's URLs per file (default 50,000); tests lower it to reach the index form (docs/seo.md). */
  sitemap?: SitemapOptions;
}

/** What the page cache middleware tells the handler about this request, and the handler's page back. */
export interface PageCacheState {
  /** False for a request with the session cookie: its answer is never kept for others. */
  shared: boolean;
  /** The answer, set by cacheableAnswer, kept by the middleware after the response went out. */
  answer?: { body: Uint8Array<ArrayBuffer>; contentType: string };
}

/** A file served under /api/v1/docs/assets/, by its name there; null when there is no such file. */
export type DocsAssetSource = (name: string) => Promise<{ body: Uint8Array<ArrayBuffer>; contentType: string } | null>;
