// GET /api/v1/docs/explorer – the interactive explorer: Scalar's UI from our own origin, reading /api/v1/openapi.json.
// The reference itself is our own page at /api/v1/docs (docs-page.ts); this third-party UI is kept beside it for its
// request console, although axe-core finds accessibility faults in its DOM that we cannot fix from outside.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { cspScriptHash } from '../../csp-hash';
import type { AppEnv } from '../../types';
import { rateLimit } from '../../middleware/rate-limit';
import { OPENAPI_PATH } from './openapi';
import { REFERENCE_UI_PATH } from './reference-ui';

export const EXPLORER_PATH = '/api/v1/docs/explorer';

/**
 * Scalar's options that keep every request on this origin (docs/mcp-and-search.md "The API reference"): no
 * fonts from its font CDN, no telemetry, no AI agent or MCP panel (both talk to Scalar's servers), no developer
 * toolbar (it offers uploads to Scalar's registry), no button that hands our document to Scalar's hosted client.
 * "Test Request" calls this origin directly (no proxy is configured).
 */
export const REFERENCE_UI_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
};

/**
 * The UI bundles zod 4, which probes for eval (`new Function("")`) to compile its parsers; under our policy the probe
 * fails safely (zod falls back to plain parsing) but is reported as a violation on every page view. Newer zod reads
 * its `jitless` setting from the global object at load time, which turns the probe off. The zod inside the UI
 * version we pin (the last one whose packages support Node 20, package.json) predates that, so the probe itself is
 * answered as the policy would answer it, an EvalError, without asking the browser: only that exact probe (one
 * empty-string argument); any other use of Function still meets the policy and is reported. One inline script,
 * seeded before the bundle runs and allowed by its hash.
 */
const REFERENCE_UI_PRELUDE =
  'globalThis.__zod_globalConfig={jitless:true};' +
  '(()=>{const F=Function,probe=(a)=>a.length===1&&a[0]==="",no=()=>new EvalError("eval is disabled on this page");' +
  'globalThis.Function=new Proxy(F,{construct(t,a,n){if(probe(a))throw no();return Reflect.construct(t,a,n)},' +
  'apply(t,s,a){if(probe(a))throw no();return Reflect.apply(t,s,a)}})})()';

/**
 * The page's policy names no origin but its own and allows no eval: the page shares its origin with /account,
 * so no third-party code may run on it. Inline styles are allowed because the UI needs them: it injects
 * <style> elements (its theme, its toaster) and style attributes that no nonce can reach, and a nonce would
 * switch 'unsafe-inline' off. Styles cannot run code, and img-src/font-src/connect-src keep any CSS from
 * reaching another origin.
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  `script-src 'self' ${cspScriptHash(REFERENCE_UI_PRELUDE)}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const attribute = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

// The UI's documented HTML mount: it reads data-url and data-configuration from #api-reference and mounts
// beside it. A JSON-typed script is data, never run, so it needs nothing from the policy.
const docsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>tooldir API explorer</title>
<script>${REFERENCE_UI_PRELUDE}</script></head>
<body>
<noscript>The interactive explorer needs JavaScript. The <a href="/api/v1/docs">API reference</a> works without it; the raw document is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</noscript>
<script id="api-reference" type="application/json" data-url="${OPENAPI_PATH}" data-configuration="${attribute(JSON.stringify(REFERENCE_UI_CONFIGURATION))}"></script>
<script src="${REFERENCE_UI_PATH}"></script>
</body></html>`;

export function register(app: OpenAPIHono<AppEnv>) {
  // Unauthenticated pages share the per-IP `public` policy.
  app.use(EXPLORER_PATH, rateLimit('public'));
  app.get(EXPLORER_PATH, (c) => {
    c.header('Content-Security-Policy', EXPLORER_CSP);
    return c.html(docsPage);
  });
}
