// The API reference UI: Scalar's standalone browser bundle, served from our own origin (never a CDN).
// Why Scalar and how it is kept offline: docs/mcp-and-search.md "The API reference (/api/v1/docs)".
import { dependencies } from '../../../package.json';

/** The npm package that ships the UI, pinned to an exact version in package.json (and so in package-lock). */
export const REFERENCE_UI_PACKAGE = '@scalar/api-reference';
/** The one file of the package the browser loads: a self-contained IIFE with its CSS inlined. */
export const REFERENCE_UI_FILE_IN_PACKAGE = 'dist/browser/standalone.js';
/** The exact version from package.json: the file name carries it, so the file can be cached forever. */
export const REFERENCE_UI_VERSION: string = dependencies[REFERENCE_UI_PACKAGE];

/** Every docs asset lives under this path, on Node (from node_modules) and on Workers (static assets). */
export const DOCS_ASSETS_PREFIX = '/api/v1/docs/assets/';
export const REFERENCE_UI_ASSET = `scalar-api-reference-${REFERENCE_UI_VERSION}.js`;
export const REFERENCE_UI_PATH = `${DOCS_ASSETS_PREFIX}${REFERENCE_UI_ASSET}`;

/** A versioned file never changes under its name: browsers and caches keep it for a year without asking. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
export const JAVASCRIPT_TYPE = 'text/javascript; charset=utf-8';
