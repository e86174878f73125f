// The card pages in a real browser (Debian's Chromium via playwright-core, the real Node entry): the home page,
// its second page and a category page at 390 px and 1280 px have no horizontal scroll, 1 column on a phone and
// 2–3 on a desktop, every image loaded, no request to another origin, no console error and no CSP violation.
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startNodeServer, type NodeServer } from '../../../functions/node';
import { findChromium, launchLoopbackChromium } from '../../helpers/services/chromium';
import { requireService } from '../../helpers/services/require-service';
import { icoBytes, pngBytes } from '../../helpers/image-bytes';
import { seedTools } from '../../helpers/live-tools';

const CHROMIUM = findChromium();
const describeBrowser = requireService('Chromium', CHROMIUM !== null, 'REQUIRE_BROWSER');

describeBrowser('card pages in Chromium', () => {
  let server: NodeServer;
  let browser: Browser;
  let dataDir: string;
  const paths: string[] = ['/', '/categories/writing'];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tooldir-cards-browser-'));
    cpSync(inject('pgliteTemplate'), join(dataDir, 'pglite'), { recursive: true });
    // Our own media copies, as the crawler stores them (docs/media.md).
    const media = (bytes: Uint8Array, ext: string) => {
      const name = `${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
      mkdirSync(join(dataDir, 'media'), { recursive: true });
      writeFileSync(join(dataDir, 'media', name), bytes);
      return name;
    };
    const image = media(pngBytes(42), 'png');
    const icon = media(icoBytes(), 'ico');
    server = await startNodeServer(
      { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      { localSweeper: false },
    );
    const longWord = 'Supercalifragilisticexpialidociousautomaticsummarizer'.repeat(2);
    await seedTools(
      server.deps.db,
      Array.from({ length: 30 }, (_, i) => ({
        name: i === 3 ? longWord : `Card Tool ${i} with a rather long name for a small screen`,
        description: `${longWord} ${'Writes, edits and summarises long documents for busy teams. '.repeat(5)}`,
        categories: i % 2 ? ['writing', 'research', 'productivity'] : ['writing'],
        isFeature: i % 5 === 0,
        isSponsor: i === 7,
        image: i % 3 === 0 ? image : undefined,
        icon: i % 3 === 1 ? icon : undefined,
      })),
      server.url,
    );
    const home = await (await fetch(`${server.url}/`)).text();
    const next = home.match(/<a rel="next" href="([^"]+)"/)?.[1];
    expect(next).toBeTruthy();
    paths.push(next!);
    browser = await launchLoopbackChromium(CHROMIUM!);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    [390, [1, 1]],
    [1280, [2, 3]],
  ] as const)(
    'shows the cards at %i px without horizontal scroll, broken image or foreign request',
    async (width, [minColumns, maxColumns]) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const foreign: string[] = [];
      const problems: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('data:') || new URL(url).origin === server.url) return route.continue();
        foreign.push(url);
        return route.abort();
      });
      const p = await context.newPage();
      p.on('console', (m) => {
        if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
      });
      p.on('pageerror', (e) => problems.push(e.message));
      try {
        for (const path of paths) {
          expect((await p.goto(`${server.url}${path}`))?.status(), path).toBe(200);
          const report = await p.evaluate(async () => {
            // One at a time: a lazy image starts loading once it is scrolled to, and decode() waits for it.
            const images: Array<{ src: string; ok: boolean }> = [];
            for (const img of document.images) {
              img.scrollIntoView();
              const ok = await img.decode().then(
                () => img.naturalWidth > 0,
                () => false,
              );
              images.push({ src: img.getAttribute('src') ?? '', ok });
            }
            window.scrollTo(0, 0);
            const grid = document.querySelector('main > ul.cards');
            return {
              images,
              cards: document.querySelectorAll('li.card').length,
              columns: grid ? getComputedStyle(grid).gridTemplateColumns.split(' ').length : 0,
              scrollWidth: document.documentElement.scrollWidth,
              innerWidth: window.innerWidth,
            };
          });
          expect(report.cards, path).toBeGreaterThan(0);
          expect(report.scrollWidth, path).toBeLessThanOrEqual(report.innerWidth);
          expect(report.columns, path).toBeGreaterThanOrEqual(minColumns);
          expect(report.columns, path).toBeLessThanOrEqual(maxColumns);
          for (const image of report.images) {
            expect(image.ok, `${path}: ${image.src.slice(0, 80)}`).toBe(true);
            expect(image.src, path).toMatch(/^(\/media\/[0-9a-f]{64}\.(png|ico)|data:image\/svg\+xml,.+)$/);
          }
          expect(
            report.images.some((i) => i.src.startsWith('/media/')),
            path,
          ).toBe(true);
          expect(
            report.images.some((i) => i.src.startsWith('data:')),
            path,
          ).toBe(true);
        }
        expect(foreign).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});
