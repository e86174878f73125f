// Node only (imported by functions/node.ts, never by the Worker): media as files in one directory.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkedMediaKey } from './media-key';
import type { MediaStore } from './types';

/**
 * Files named by their media name in `dir` (DATA_DIR/media). A put writes a
 * temporary file and renames it into place, so a reader never sees half an image; two puts of one name write
 * the same bytes, so the last rename changes nothing.
 */
export function createFilesystemMediaStore(dir: string): MediaStore {
  const pathOf = (name: string) => join(dir, checkedMediaKey(name));
  let made: Promise<unknown> | undefined;
  return {
    kind: 'filesystem',
    async head(name) {
      const info = await stat(pathOf(name)).catch(missing);
      return info?.isFile() ? { size: info.size } : null;
    },
    async get(name) {
      const bytes = await readFile(pathOf(name)).catch(missing);
      return bytes
        ? { size: bytes.byteLength, body: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) }
        : null;
    },
    async put(name, bytes) {
      const path = pathOf(name);
      await (made ??= mkdir(dir, { recursive: true }).catch((error: unknown) => {
        made = undefined; // the next put tries again (the directory may be creatable by then)
        throw error;
      }));
      const temporary = join(dir, `.${randomUUID()}.tmp`);
      try {
        await writeFile(temporary, bytes);
        await rename(temporary, path);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
  };
}

/** A missing file is "no such object"; any other error (permissions, a full disk) is thrown. */
function missing(error: unknown): null {
  if ((error as { code?: unknown }).code === 'ENOENT') return null;
  throw error;
}
