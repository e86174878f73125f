import type { HtmlEscapedString } from 'hono/utils/html';

/** A fragment built with hono's `html` tag: every interpolated string is escaped. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;
