// Loaded with import() by ./qstash.ts: names only the Client so the bundler can drop the rest of the SDK,
// and the SDK is evaluated on the first publish instead of at isolate start.
export { Client as QStashClient } from '@upstash/qstash';
