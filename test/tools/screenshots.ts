// Regenerates docs/screenshots/{home,category,tool}-{390,1280}.png (README "The public directory"): starts the
// real Node server on a fresh local data dir, seeds realistic live tools (a few featured, one sponsored, some
// with our own image copies), and photographs the pages with Debian's Chromium. Not part of npm test.
//   npx tsx test/tools/screenshots.ts
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { startNodeServer } from '../../functions/node';
import { seedTools, type ToolSeed } from '../helpers/live-tools';
import { findChromium, launchLoopbackChromium } from '../helpers/services/chromium';

const OUT = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A 240×126 PNG: a diagonal gradient between two colours, standing in for a crawled og:image. */
function gradientPng(from: [number, number, number], to: [number, number, number]): Uint8Array {
  const [w, h] = [240, 126];
  const rows: number[] = [];
  for (let y = 0; y < h; y++) {
    rows.push(0);
    for (let x = 0; x < w; x++) {
      const t = (x / w + y / h) / 2;
      for (let c = 0; c < 3; c++) rows.push(Math.round(from[c]! + (to[c]! - from[c]!) * t));
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const head = Buffer.alloc(4);
    head.writeUInt32BE(data.length);
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(body));
    return Buffer.concat([head, body, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(rows))), chunk('IEND', Buffer.alloc(0))]));
}

const TOOLS: Array<[string, string, string[], Partial<ToolSeed>?]> = [
  ['Quillwise', 'Drafts blog posts, newsletters and release notes in your own voice from a few bullet points.', ['writing', 'marketing'], { isSponsor: true }],
  ['Pixel Forge', 'Turns a sentence into product shots, icons and illustrations with consistent brand colours.', ['image', 'design'], { isFeature: true }],
  ['CodePilot Review', 'Reviews pull requests, explains risky changes and suggests tests before you merge.', ['code'], { isFeature: true }],
  ['Meeting Minutes AI', 'Joins your calls, writes the summary and sends action items to everyone who attended.', ['productivity', 'audio']],
  ['Paper Digest', 'Reads research papers for you and answers questions with citations to the exact page.', ['research', 'education']],
  ['Voiceloom', 'Studio-quality narration in forty languages, with voices you can tune for pace and tone.', ['audio', 'video']],
  ['Tabular', 'Ask questions of your spreadsheets in plain English and get charts you can paste anywhere.', ['data']],
  ['Clipcraft', 'Cuts long videos into captioned shorts and picks the moments most worth sharing.', ['video', 'marketing'], { isFeature: true }],
  ['Tutor Owl', 'A patient maths and science tutor that explains each step and checks your reasoning.', ['education', 'chat']],
  ['Brandboard', 'Generates logos, palettes and type pairings, then exports a complete brand kit.', ['design']],
  ['SupportSage', 'Answers customer emails from your help centre and hands tricky ones to a human.', ['chat', 'productivity']],
  ['Query Whisperer', 'Writes and explains SQL for your schema, and warns before a query scans a whole table.', ['data', 'code']],
  ['Slide Smith', 'From outline to a polished slide deck with speaker notes in under a minute.', ['productivity', 'design']],
  ['Grant Writer Pro', 'Helps researchers and non-profits draft grant proposals that follow each funder’s rules.', ['writing', 'research']],
  ['Podcast Polish', 'Removes filler words, levels audio and writes show notes for every episode.', ['audio']],
  ['Chatterbox Studio', 'Build a chat assistant on your own documents and embed it on your site.', ['chat']],
];

const PALETTE: Array<[[number, number, number], [number, number, number]]> = [
  [[99, 102, 241], [236, 72, 153]],
  [[14, 165, 233], [34, 197, 94]],
  [[249, 115, 22], [234, 179, 8]],
  [[20, 184, 166], [59, 130, 246]],
];

async function main() {
  const chromiumPath = findChromium();
  if (!chromiumPath) throw new Error('No Chromium found (apt-get install chromium).');
  const dataDir = mkdtempSync(join(tmpdir(), 'tooldir-screenshots-'));
  mkdirSync(join(dataDir, 'media'), { recursive: true });
  const images = PALETTE.map(([a, b]) => {
    const bytes = gradientPng(a, b);
    const name = `${createHash('sha256').update(bytes).digest('hex')}.png`;
    writeFileSync(join(dataDir, 'media', name), bytes);
    return name;
  });
  const server = await startNodeServer({ HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { localSweeper: false });
  const browser = await launchLoopbackChromium(chromiumPath);
  try {
    const hour = 3_600_000;
    const seeds: ToolSeed[] = TOOLS.map(([name, description, categories, extra], i) => ({
      name,
      description,
      categories,
      publishedAt: new Date(Date.now() - (i + 1) * 5 * hour),
      image: i % 3 === 0 || extra?.isFeature ? images[i % images.length] : undefined,
      ...extra,
    }));
    // Older tools fill a second page, so the home page shows its Next link.
    for (let i = 0; i < 12; i++) {
      seeds.push({ name: `Assistant ${i + 1}`, description: 'A general-purpose AI assistant for everyday tasks.', categories: ['chat'], publishedAt: new Date(Date.now() - (200 + i) * hour) });
    }
    const seeded = await seedTools(server.deps.db, seeds, server.url);
    const tool = seeded.find((s) => s.name === 'Pixel Forge')!;
    mkdirSync(OUT, { recursive: true });
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 900 } });
      await context.route('**/*', (route) => (new URL(route.request().url()).origin === server.url || route.request().url().startsWith('data:') ? route.continue() : route.abort()));
      const page = await context.newPage();
      for (const [name, path] of [['home', '/'], ['category', '/categories/design'], ['tool', `/tools/${tool.slug}`]] as const) {
        await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
        await page.evaluate(async () => {
          for (const img of document.images) {
            img.loading = 'eager';
            await img.decode().catch(() => {});
          }
        });
        const file = join(OUT, `${name}-${width}.png`);
        // A phone screenshot is its first two screens; a desktop one is the whole page.
        await page.screenshot({ path: file, fullPage: true, clip: width === 390 ? { x: 0, y: 0, width, height: 1688 } : undefined });
        console.log(`${file} ${Math.round(statSync(file).size / 1024)} KB`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
