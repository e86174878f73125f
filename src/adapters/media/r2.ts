import { checkedMediaKey } from './media-key';
import type { MediaStore } from './types';

/**
 * Cloudflare R2 through the Worker's bucket binding (wrangler.toml [[r2_buckets]], binding MEDIA). The key is the
 * media name; the Content-Type rides along as httpMetadata, and R2 checks the upload against its SHA-256.
 */
export function createR2MediaStore(bucket: R2Bucket): MediaStore {
  const key = checkedMediaKey;
  return {
    kind: 'r2',
    async head(name) {
      const object = await bucket.head(key(name));
      return object ? { size: object.size } : null;
    },
    async get(name) {
      const object = await bucket.get(key(name));
      return object ? { size: object.size, body: object.body } : null;
    },
    async put(name, bytes, contentType) {
      await bucket.put(key(name), bytes, { httpMetadata: { contentType }, sha256: name.slice(0, 64) });
    },
  };
}

/** Duck-typed check of a Worker binding (env values are untyped): an object with the bucket methods we call. */
export function isR2Bucket(value: unknown): value is R2Bucket {
  const candidate = value as Partial<Record<'head' | 'get' | 'put', unknown>> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    ['head', 'get', 'put'].every((m) => typeof candidate[m as 'head'] === 'function')
  );
}
