import type { Deps } from '../src/deps';
import type { Actor } from '../src/accounts/actor';

/** Hono environment shared by every function: per-request deps and, once authenticated, the actor. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    actor: Actor;
    requestId: string;
  };
}

/** What the entry (Node or Workers) tells the app about its runtime. */
export interface AppOptions {
  /** Extra routes mounted by a build (the benchmark floor route). */
  extraRoutes?: (app: import('@hono/zod-openapi').OpenAPIHono<AppEnv>) => void;
}
