// Loaded with import() by ./upstash.ts: the Redis client is evaluated on the first counted request, not at
// isolate start (the rate limiter's SDK module does the same; the bundler shares the one copy).
export { Redis } from '@upstash/redis';
