// Loaded with import() by ./stripe.ts: a local module that names only the export we use keeps the bundler's
// tree shaking (a dynamic import of 'stripe' itself would keep its whole namespace) while the SDK is
// evaluated on first use instead of at isolate start.
export { default as StripeSdk } from 'stripe';
