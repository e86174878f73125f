// Build shim (wrangler.toml [alias]): zod's `z` namespace re-exports every locale (~360 KiB of messages)
// and a namespace object cannot be tree-shaken. The service only ever uses English, zod's default.
export { default as en } from 'zod/v4/locales/en.js';
