// Build step of the Worker only (wrangler.toml [alias] "./stripe.core.js", written by build-assets.ts): stripe-node's
// client class with only the API resources the Worker calls. stripe-node's core imports every resource of the API
// (about 120 classes of request specs) and builds each one in the constructor, and its `Stripe.resources` namespace
// imports them all once more, so none of it can be tree-shaken: 34 KiB of the bundle's gzip, most of it never called.
//
// The module written here is the installed stripe.core.js itself, text for text, minus the import and the
// `this.<name> = new <Class>(this)` line of every resource not in STRIPE_RESOURCES_USED, with its relative imports
// pointed back at the package. Why it is safe:
// - The resources kept are the ones src/adapters/payments/stripe.ts calls; test/functions/worker/stripe-core-subset.test.ts
//   builds `stripe` the way wrangler does and checks that every `stripe.<resource>.<method>(` written in src/ and
//   functions/ exists on a client of the aliased build (and that the ones left out are really gone).
// - A resource left out is absent (`stripe.accounts` is undefined), so a call added later fails loudly in the tests
//   above, never silently.
// - Everything else (request sending, retries, errors, webhook signatures, the fetch client) is the package's code.
// - The generator refuses a stripe.core.js it does not recognise (a kept resource not found, a removed class still
//   referenced), so a stripe-node upgrade that changes the file's shape breaks the build instead of the Worker.
// - `Stripe.resources` keeps only OAuthResource (the constructor reads it); `notificationHandler()` (Stripe's v2
//   "thin" event notifications, which the Worker does not subscribe to) throws instead of carrying its 300 event names.
// The Node server bundles stripe-node whole (this alias is only in wrangler.toml).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/**
 * The client properties the Worker uses (src/adapters/payments/stripe.ts): checkout.sessions (create, expire),
 * billingPortal.sessions.create, refunds (create, list), subscriptions (cancel, retrieve, update),
 * invoices.retrieve, invoicePayments.list. The webhook signature is the static `Stripe.webhooks`, always there.
 */
export const STRIPE_RESOURCES_USED = [
  'billingPortal',
  'checkout',
  'invoicePayments',
  'invoices',
  'refunds',
  'subscriptions',
] as const;

/** Must match the `"./stripe.core.js"` alias in wrangler.toml. */
export const STRIPE_CORE_MODULE = join(root, 'dist', 'worker-build', 'stripe-core.js');

/** The installed package's ESM folder (the one the `workerd` export condition points into). */
export function stripeEsmDir(): string {
  // The package's exports map hides its files; its CommonJS entry (cjs/stripe.cjs.node.js) sits beside esm/.
  const cjsEntry = createRequire(join(root, 'package.json')).resolve('stripe');
  return join(dirname(dirname(cjsEntry)), 'esm');
}

const NOTIFICATION_HANDLER = `// Left out of the Worker build (functions/worker/stripe-core-subset.ts): Stripe's v2 event notifications.
class StripeEventNotificationHandler {
    constructor() {
        throw new Error('stripe.notificationHandler() is not part of the Worker build (functions/worker/stripe-core-subset.ts)');
    }
    static withoutVerification() {
        return new StripeEventNotificationHandler();
    }
}`;

/**
 * stripe.core.js (its text) with only `keep` among the resources, its imports relative to `esmFromModule` (the
 * package's esm folder as seen from where the module is written). Throws on a file it does not recognise.
 */
export function stripeCoreSubset(
  core: string,
  esmFromModule: string,
  keep: readonly string[] = STRIPE_RESOURCES_USED,
): string {
  // this.<property> = new <Class>(this); for every class imported from ./resources/…
  const resourceClasses = new Map<string, string>(); // class -> its import line
  for (const match of core.matchAll(/^import \{ (\w+),? \} from '\.\/resources\/[^']+';\n/gm)) {
    resourceClasses.set(match[1] as string, match[0]);
  }
  const properties = new Map<string, string>(); // property -> class
  for (const match of core.matchAll(/^ {8}this\.(\w+) = new (\w+)\(this\);$/gm)) {
    if (resourceClasses.has(match[2] as string)) properties.set(match[1] as string, match[2] as string);
  }
  const missing = keep.filter((name) => !properties.has(name));
  if (resourceClasses.size < 20 || missing.length > 0) {
    throw new Error(`stripe.core.js not recognised: resources ${missing.join(', ') || '(none found)'} missing`);
  }
  let text = core;
  for (const [property, name] of properties) {
    if (keep.includes(property)) continue;
    text = text.replace(new RegExp(`^ {8}this\\.${property} = new ${name}\\(this\\);\\n`, 'm'), '');
    // Aliases of a removed resource (`this.account = this.accounts;`) go with it.
    text = text.replace(new RegExp(`^ {8}this\\.\\w+ = this\\.${property};\\n`, 'gm'), '');
  }
  // Every resource import but the kept ones' goes (some are imported and never used, e.g. Reserve in 23.1.0).
  const kept = new Set(keep.map((property) => properties.get(property)));
  const removed = [...resourceClasses.keys()].filter((name) => !kept.has(name));
  for (const name of removed) text = text.replace(resourceClasses.get(name) as string, '');
  const replace = (pattern: string, by: string) => {
    if (!text.includes(pattern)) throw new Error(`stripe.core.js not recognised: no ${JSON.stringify(pattern)}`);
    text = text.replace(pattern, by);
  };
  replace("import * as resources from './resources.js';\n", '');
  replace(
    "import { OAuthResource } from './resources.js';\n",
    "import { OAuthResource } from './resources/OAuth.js';\n// Stripe.resources, reduced to what the constructor reads (functions/worker/stripe-core-subset.ts).\nconst resources = { OAuthResource };\n",
  );
  replace(
    "import { StripeEventNotificationHandler, } from './StripeEventNotificationHandler.js';\n",
    `${NOTIFICATION_HANDLER}\n`,
  );
  const still = removed.filter((name) => new RegExp(`\\b${name}\\b`).test(text));
  if (still.length > 0) throw new Error(`stripe.core.js not recognised: ${still.join(', ')} still referenced`);
  const posix = esmFromModule.split(sep).join('/');
  const base = posix.startsWith('.') || posix.startsWith('/') ? posix : `./${posix}`;
  text = text.replace(/ from '\.\/([^']+)';$/gm, (_, path: string) => ` from '${base}/${path}';`);
  text = text.replace(/^\/\/# sourceMappingURL=.*$/m, '');
  return `// Written by functions/worker/stripe-core-subset.ts for the Worker build only (wrangler.toml [alias]
// "./stripe.core.js"): stripe-node's stripe.core.js with the resources ${keep.join(', ')} only.
${text}`;
}

/** Writes STRIPE_CORE_MODULE when its content changed (wrangler dev watches the sources it bundles). */
export function writeStripeCoreModule(file = STRIPE_CORE_MODULE): void {
  const esm = stripeEsmDir();
  const core = readFileSync(join(esm, 'stripe.core.js'), 'utf8');
  const text = stripeCoreSubset(core, relative(dirname(file), esm));
  if (existsSync(file) && readFileSync(file, 'utf8') === text) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}
