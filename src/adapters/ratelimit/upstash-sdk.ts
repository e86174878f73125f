// Loaded with import() by ./upstash.ts: names only what the limiter uses so the bundler can drop the rest of the
// SDK, and it is evaluated on the first limited request instead of at isolate start. Redis itself is reached through
// ./upstash-scripts.ts, not @upstash/redis.
export { Ratelimit } from '@upstash/ratelimit';
