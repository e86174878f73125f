// Loaded with import() by ./upstash.ts: names only what the limiter uses so the bundler can drop the rest
// of both SDKs, and they are evaluated on the first limited request instead of at isolate start.
export { Ratelimit } from '@upstash/ratelimit';
export { Redis } from '@upstash/redis';
