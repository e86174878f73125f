import type { Context } from 'hono';
import type { AppEnv } from '../types';

/** The page 404 outside /api (public pages register their own richer one). */
export function notFoundPage(c: Context<AppEnv>) {
  return c.html(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found – tooldir</title></head>' +
      '<body><h1>Not found</h1><p>There is no page here. <a href="/">Back to the directory</a>.</p></body></html>',
    404,
  );
}
