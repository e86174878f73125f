import type { Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../types';
import { renderPage } from './layout';

/** The page 404 outside /api: unknown paths and unknown tool slugs. */
export function notFoundPage(c: Context<AppEnv>) {
  return renderPage(c, {
    title: 'Not found – tooldir',
    description: 'There is no page at this address.',
    status: 404,
    noindex: true,
    body: () => html`<h1>Not found</h1><p>There is no page here. <a href="/">Back to the directory</a>.</p>`,
  });
}
