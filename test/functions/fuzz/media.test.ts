// Property-based fuzzing of GET /media/{name}: whatever the name, never a 5xx; anything but a stored media name is
// a 404 in the error shape, and only a stored one is served (with the immutable headers).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMediaStore } from '../../../src/adapters/media/memory';
import { mediaNameOf } from '../../../src/media/media-name';
import { pngBytes } from '../../helpers/image-bytes';
import type { TestApp } from '../../helpers/test-app';
import { createTestApp } from '../../helpers/test-app';
import { RUNS, expectNoServerError } from './fuzz-app';

let t: TestApp;
let stored: string;
beforeAll(async () => {
  const media = createMemoryMediaStore();
  stored = await mediaNameOf(pngBytes(5), 'png');
  await media.put(stored, pngBytes(5), 'image/png');
  t = await createTestApp({ overrides: { media } });
});
afterAll(() => t.close());

const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 60, maxLength: 68 });
const segment = fc.oneof(
  // Near misses of the real shape: wrong length, case, extension, extra dots.
  fc
    .tuple(hex, fc.constantFrom('png', 'jpg', 'webp', 'gif', 'ico', 'svg', 'PNG', 'html', '', 'png.png'))
    .map(([h, e]) => `${h}.${e}`),
  // Mutations of the stored name itself.
  fc.tuple(fc.nat(), fc.constantFrom('', '/', '..', '%2F', '%00', '.', 'A', ' ', '%20')).map(([i, s]) => {
    const at = i % (stored.length + 1);
    return stored.slice(0, at) + s + stored.slice(at);
  }),
  // Anything at all, percent-encoded as a client might send it.
  fc.string({ maxLength: 80 }).map(encodeURIComponent),
  fc.webSegment(),
);

describe('fuzz GET /media/{name}', () => {
  it(`answers ${RUNS} generated names without a 5xx, serving only the stored name`, async () => {
    let served = 0;
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom('GET', 'HEAD'), async (name, method) => {
        const res = await t.request(`/media/${name}`, { method });
        const path = new URL(`http://x/media/${name}`).pathname;
        // Dot segments normalise out of /media/ (/media/.. is /, the home page; /media/../x is the site's HTML 404):
        // that answer belongs to another route, so only "no 5xx" holds for it.
        if (!path.startsWith('/media/')) return void expect(res.status).toBeLessThan(500);
        if (res.status === 200) {
          served++;
          expect(path).toBe(`/media/${stored}`);
          expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
          return;
        }
        expect(res.status, `${method} /media/${name}`).toBe(404);
        if (method === 'GET') await expectNoServerError(res, `GET /media/${name}`);
      }),
      {
        numRuns: RUNS,
        examples: [
          [stored, 'GET'],
          ['..', 'GET'],
          ['..', 'HEAD'],
        ],
      },
    );
    expect(served).toBeGreaterThan(0);
  });
});
