// What a tool address that names no live tool answers when its slug still means something (docs/pipeline.md
// "Renames", "Withdrawal"): 301 to the tool's current slug (same path shape, query kept), or 410 for a listing its
// owner withdrew. Shared by /tools/, /go/, /badge/ and GET /api/v1/tools/{slug}.
import type { Context } from 'hono';
import { html } from 'hono/html';
import { slugFate, type SlugFate } from '../../src/directory/slug-history';
import { formatDate } from '../../src/display-time';
import type { AppEnv } from '../types';
import { renderPage } from './layout';

/** The same request's path with `slug` in place of the old one (the query string is kept: a badge's theme). */
export function movedLocation(c: Context<AppEnv>, pathOf: (slug: string) => string, slug: string): string {
  const query = new URL(c.req.url).search;
  return `${pathOf(slug)}${query}`;
}

/**
 * 301 to where an old slug went, the 410 page for a withdrawn listing, or undefined (the caller's 404). A redirect
 * may be kept by browsers for good (a slug never goes to another tool), but not by a shared cache for long.
 */
export async function answerSlugFate(
  c: Context<AppEnv>,
  slug: string,
  pathOf: (slug: string) => string,
): Promise<Response | undefined> {
  const fate = await slugFate(c.get('deps'), slug);
  if (!fate) return undefined;
  if (fate.kind === 'moved') return redirectTo(c, movedLocation(c, pathOf, fate.slug));
  return withdrawnPage(c, fate);
}

export function redirectTo(c: Context<AppEnv>, location: string): Response {
  c.header('Cache-Control', 'public, max-age=3600');
  return c.redirect(location, 301);
}

function withdrawnPage(c: Context<AppEnv>, fate: Extract<SlugFate, { kind: 'withdrawn' }>) {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: `${fate.name} was withdrawn – tooldir`,
    description: `${fate.name} is no longer listed on tooldir.`,
    status: 410,
    noindex: true,
    body: () => html`<h1>${fate.name} is no longer listed</h1>
<p>Its maker withdrew it from the directory on ${formatDate(fate.withdrawn_at)}.</p>
<p><a href="/">Browse the directory</a>.</p>`,
  });
}
