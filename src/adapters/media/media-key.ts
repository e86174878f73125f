// The one shape of a key any media store accepts: `{64 lower-case hex}.{png|jpg|webp|gif|ico}` (docs/media.md).
// It lives with the stores (adapters import no core module); src/media/media-name.ts builds on it.

/** Lower-case hex only, one dot, a known extension: nothing else can ever reach a storage lookup. */
const MEDIA_KEY = /^[0-9a-f]{64}\.(?:png|jpg|webp|gif|ico)$/;

/** True for a well-formed media name. */
export function isMediaKey(value: unknown): value is string {
  return typeof value === 'string' && MEDIA_KEY.test(value);
}

/** Stores are the last line: a caller that skipped the name check gets an error, never a path or key of its making. */
export function checkedMediaKey(name: string): string {
  if (!isMediaKey(name)) throw new Error(`not a media name: ${JSON.stringify(String(name).slice(0, 100))}`);
  return name;
}
