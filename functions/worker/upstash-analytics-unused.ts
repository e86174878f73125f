// Build shim (wrangler.toml [alias] for '@upstash/core-analytics'): @upstash/ratelimit builds its analytics
// client only when created with `analytics: true`; src/adapters/ratelimit/upstash.ts passes `analytics: false`,
// so it is never constructed. Leaving it out keeps ~2.4 KiB gzipped off the Worker bundle.
export class Analytics {
  constructor() {
    throw new Error('rate-limit analytics are not part of the Worker build: the limiter runs with analytics: false');
  }
}
