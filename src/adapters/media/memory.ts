import { checkedMediaKey } from './media-key';
import type { MediaStore } from './types';

/** A store in process memory: the default of buildDeps (tests); the entries pass R2 or the disk. */
export function createMemoryMediaStore(): MediaStore & {
  readonly objects: ReadonlyMap<string, { bytes: Uint8Array; contentType: string }>;
} {
  const objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  const checked = (name: string) => objects.get(checkedMediaKey(name));
  return {
    kind: 'memory',
    objects,
    async head(name) {
      const object = checked(name);
      return object ? { size: object.bytes.byteLength } : null;
    },
    async get(name) {
      const object = checked(name);
      return object ? { size: object.bytes.byteLength, body: object.bytes.slice() } : null;
    },
    async put(name, bytes, contentType) {
      checked(name);
      objects.set(name, { bytes: bytes.slice(), contentType });
    },
  };
}
