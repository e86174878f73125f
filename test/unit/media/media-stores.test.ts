// The disk and memory stores behind /media: round trip, missing objects, and no key built from a bad name.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFilesystemMediaStore } from '../../../src/adapters/media/filesystem';
import { createMemoryMediaStore } from '../../../src/adapters/media/memory';
import type { MediaStore } from '../../../src/adapters/media/types';
import { mediaNameOf } from '../../../src/media/media-name';
import { pngBytes } from '../../helpers/image-bytes';

const root = mkdtempSync(join(tmpdir(), 'tooldir-media-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const bodyBytes = async (body: ReadableStream<Uint8Array> | Uint8Array) =>
  body instanceof Uint8Array ? body : new Uint8Array(await new Response(body).arrayBuffer());

describe.each([
  ['filesystem', () => createFilesystemMediaStore(join(root, `media-${crypto.randomUUID()}`))],
  ['memory', () => createMemoryMediaStore()],
] as Array<[string, () => MediaStore]>)('%s store', (_kind, make) => {
  it('stores, heads and reads back an object; a missing one is null', async () => {
    const store = make();
    const png = pngBytes(9);
    const name = await mediaNameOf(png, 'png');
    expect(await store.head(name)).toBeNull();
    expect(await store.get(name)).toBeNull();
    await store.put(name, png, 'image/png');
    await store.put(name, png, 'image/png'); // the same name twice: the same bytes, no error
    expect(await store.head(name)).toEqual({ size: png.length });
    const object = await store.get(name);
    expect(object?.size).toBe(png.length);
    expect(await bodyBytes(object!.body)).toEqual(png);
  });

  it.each(['../escape.png', `${'a'.repeat(64)}.svg`, `sub/${'a'.repeat(64)}.png`, '.tmp', ''])(
    'refuses the name %j for every operation',
    async (name) => {
      const store = make();
      await expect(store.head(name)).rejects.toThrow(/not a media name/);
      await expect(store.get(name)).rejects.toThrow(/not a media name/);
      await expect(store.put(name, pngBytes(), 'image/png')).rejects.toThrow(/not a media name/);
    },
  );
});

it('the filesystem store leaves only named files behind (no temporary files)', async () => {
  const dir = join(root, 'clean');
  const store = createFilesystemMediaStore(dir);
  const names = await Promise.all([1, 2, 3].map((seed) => mediaNameOf(pngBytes(seed), 'png')));
  await Promise.all(names.map((name, i) => store.put(name, pngBytes(i + 1), 'image/png')));
  expect(readdirSync(dir).sort()).toEqual([...names].sort());
});
