// Regenerates docs/screenshots/{page}-{390,1280}.png, every page of ours (docs/pages.md "Every page, at 390 and
// 1280 px"): starts the real Node server on a fresh local data dir, seeds realistic live tools (a few featured, one
// sponsored, some with our own image copies), signs a member in by their mailed code, makes a live submission and
// one waiting for payment, and photographs each page with Debian's Chromium at both widths. Nothing leaves
// loopback: the browser's requests to anything else are aborted, and no pipeline job runs (the queue only records).
// Not part of npm test.
//   npx tsx test/tools/screenshots.ts            every page
//   npx tsx test/tools/screenshots.ts home tool  only these (names as in PAGES below)
// zod-openapi first: it adds .openapi() to zod's schemas, which src/ modules loaded here (moveSite's review) use.
import '@hono/zod-openapi';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { startNodeServer, type NodeServer } from '../../functions/node';
import type { JobQueue } from '../../src/adapters/queue/types';
import { queryRows } from '../../src/db/client';
import { consentRequestPath } from '../helpers/consent-request';
import { seedTools, type ToolSeed } from '../helpers/live-tools';
import { findChromium, launchLoopbackChromium } from '../helpers/services/chromium';
import { moveSite } from '../helpers/submission-states';
import { refundRejectedSubmission } from '../../src/pipeline/refund-rejected';
import { readMailSettings } from '../../src/accounts/mail-settings';

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
  return new Uint8Array(
    Buffer.concat([
      signature,
      chunk('IHDR', ihdr),
      chunk('IDAT', deflateSync(Buffer.from(rows))),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

const TOOLS: Array<[string, string, string[], Partial<ToolSeed>?]> = [
  [
    'Quillwise',
    'Drafts blog posts, newsletters and release notes in your own voice from a few bullet points.',
    ['writing', 'marketing'],
    { isSponsor: true },
  ],
  [
    'Pixel Forge',
    'Turns a sentence into product shots, icons and illustrations with consistent brand colours.',
    ['image', 'design'],
    { isFeature: true },
  ],
  [
    'CodePilot Review',
    'Reviews pull requests, explains risky changes and suggests tests before you merge.',
    ['code'],
    { isFeature: true },
  ],
  [
    'Meeting Minutes AI',
    'Joins your calls, writes the summary and sends action items to everyone who attended.',
    ['productivity', 'audio'],
  ],
  [
    'Paper Digest',
    'Reads research papers for you and answers questions with citations to the exact page.',
    ['research', 'education'],
  ],
  [
    'Voiceloom',
    'Studio-quality narration in forty languages, with voices you can tune for pace and tone.',
    ['audio', 'video'],
  ],
  ['Tabular', 'Ask questions of your spreadsheets in plain English and get charts you can paste anywhere.', ['data']],
  [
    'Clipcraft',
    'Cuts long videos into captioned shorts and picks the moments most worth sharing.',
    ['video', 'marketing'],
    { isFeature: true },
  ],
  [
    'Tutor Owl',
    'A patient maths and science tutor that explains each step and checks your reasoning.',
    ['education', 'chat'],
  ],
  ['Brandboard', 'Generates logos, palettes and type pairings, then exports a complete brand kit.', ['design']],
  [
    'SupportSage',
    'Answers customer emails from your help centre and hands tricky ones to a human.',
    ['chat', 'productivity'],
  ],
  [
    'Query Whisperer',
    'Writes and explains SQL for your schema, and warns before a query scans a whole table.',
    ['data', 'code'],
  ],
  [
    'Slide Smith',
    'From outline to a polished slide deck with speaker notes in under a minute.',
    ['productivity', 'design'],
  ],
  [
    'Grant Writer Pro',
    'Helps researchers and non-profits draft grant proposals that follow each funder’s rules.',
    ['writing', 'research'],
  ],
  ['Podcast Polish', 'Removes filler words, levels audio and writes show notes for every episode.', ['audio']],
  ['Chatterbox Studio', 'Build a chat assistant on your own documents and embed it on your site.', ['chat']],
];

const PALETTE: Array<[[number, number, number], [number, number, number]]> = [
  [
    [99, 102, 241],
    [236, 72, 153],
  ],
  [
    [14, 165, 233],
    [34, 197, 94],
  ],
  [
    [249, 115, 22],
    [234, 179, 8],
  ],
  [
    [20, 184, 166],
    [59, 130, 246],
  ],
];

const ADMIN_TOKEN = `screenshots-${crypto.randomUUID()}`;
/** No pipeline job runs (the crawler would fetch the submitted sites): submissions are moved by moveSite. */
const recordingQueue: JobQueue = { kind: 'local', enqueue: async () => {} };

/** Where each page is, given what was set up; `signedIn` pages are shot in the member's browser profile. */
interface Shot {
  name: string;
  path: (setup: Setup) => string;
  signedIn?: boolean;
  /** Height of the picture at each width: the first screens of a long page, not all of it. */
  height?: { 390?: number; 1280?: number };
}
interface Setup {
  toolSlug: string;
  liveSiteId: string;
  failedSiteId: string;
  refundedSiteId: string;
  mailToken: string;
  /** A submission in review: the text that will be published, and the edit form (issue 31). */
  reviewSiteId: string;
  checkoutPath: string;
  consentPath: string;
}

const PAGES: Shot[] = [
  { name: 'home', path: () => '/' },
  { name: 'search', path: () => '/?q=notes' },
  { name: 'search-corrected', path: () => '/?q=metting' },
  { name: 'search-empty', path: () => '/?q=spreadsheetz+blockchain' },
  { name: 'category', path: () => '/categories/design' },
  { name: 'tool', path: (s) => `/tools/${s.toolSlug}` },
  { name: 'pricing', path: () => '/pricing' },
  { name: 'sign-in', path: () => '/account/sign-in' },
  { name: 'api-reference', path: () => '/api/v1/docs', height: { 1280: 1800 } },
  { name: 'not-found', path: () => '/no-such-page' },
  { name: 'submit', path: () => '/submit', signedIn: true },
  { name: 'account', path: () => '/account', signedIn: true },
  { name: 'account-keys', path: () => '/account/keys', signedIn: true },
  { name: 'account-submission', path: (s) => `/account/submissions/${s.liveSiteId}`, signedIn: true },
  { name: 'account-submission-review', path: (s) => `/account/submissions/${s.reviewSiteId}`, signedIn: true },
  { name: 'account-membership', path: () => '/account/membership?tier=memberFeature', signedIn: true },
  { name: 'account-webhooks', path: () => '/account/webhooks', signedIn: true },
  { name: 'account-submission-crawl-failed', path: (s) => `/account/submissions/${s.failedSiteId}`, signedIn: true },
  { name: 'account-submission-refunded', path: (s) => `/account/submissions/${s.refundedSiteId}`, signedIn: true },
  { name: 'account-mail', path: () => '/account/mail', signedIn: true },
  { name: 'mail-unsubscribe', path: (s) => `/mail/unsubscribe/${s.mailToken}` },
  { name: 'checkout', path: (s) => s.checkoutPath, signedIn: true },
  { name: 'consent', path: (s) => s.consentPath, signedIn: true },
];

/** A phone screenshot is its first two screens; a desktop one the whole page, up to this height. */
const DEFAULT_HEIGHT = { 390: 1688, 1280: 3000 };

async function api(server: NodeServer, path: string, init: { method?: string; key?: string; json?: unknown } = {}) {
  const res = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key && { authorization: `Bearer ${init.key}` }),
      ...(init.json !== undefined && { 'content-type': 'application/json' }),
    },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Signs the member in the way a person does: the e-mailed code (read from the local mail outbox). */
async function signIn(server: NodeServer, page: Page, email: string) {
  await page.goto(`${server.url}/account/sign-in`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.waitForSelector('text=We sent a 6-digit code');
  let code: string | undefined;
  for (let i = 0; i < 100 && !code; i++) {
    const mails = await queryRows<{ text: string }>(
      server.deps.db,
      sql`SELECT text FROM mail_outbox WHERE "to" = ${email} ORDER BY id DESC`,
    );
    code = /\b(\d{6})\b/.exec(mails[0]?.text ?? '')?.[1];
    if (!code) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (!code) throw new Error(`no sign-in code was mailed to ${email}`);
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/account`);
}

/** A member with an API key, a live submission and one waiting for payment, and an agent asking for consent. */
async function setUp(server: NodeServer, toolSlug: string): Promise<Setup & { email: string }> {
  const email = 'maker@example.com';
  const account = await api(server, '/api/v1/admin/accounts', {
    method: 'POST',
    key: ADMIN_TOKEN,
    json: { email, tier: 'member' },
  });
  const { key } = (
    await api(server, `/api/v1/admin/accounts/${String(account.body.account_id)}/keys`, {
      method: 'POST',
      key: ADMIN_TOKEN,
    })
  ).body as { key: string };
  const live = await api(server, '/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: 'Storyboard Studio', url: 'https://storyboard-studio.example/', categories: ['video', 'design'] },
  });
  const liveSiteId = String(live.body.site_id);
  await moveSite(server.deps, liveSiteId, 'live');
  const review = await api(server, '/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: 'Meeting Minutes AI', url: 'https://meeting-minutes.example/', categories: ['writing'] },
  });
  const reviewSiteId = String(review.body.site_id);
  await moveSite(server.deps, reviewSiteId, 'pending_review');
  await queryRows(
    server.deps.db,
    sql`UPDATE sites SET metadata = jsonb_build_object('title', 'Meeting Minutes AI – notes that write themselves', 'description', 'Records your meetings and writes the minutes: decisions, owners and deadlines, ready to share.') WHERE id = ${reviewSiteId}::uuid`,
  );
  const sponsored = await api(server, '/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: 'Lecture Lens', url: 'https://lecture-lens.example/', plan: 'sponsored', categories: ['education'] },
  });
  if (sponsored.status !== 402) throw new Error(`a sponsored submission answered ${sponsored.status}, not 402`);
  const consentPath = await consentRequestPath(server.url, 'Research Agent');
  // A crawl that failed on a mistyped address (the page offers a new one), and a paid one rejected and refunded.
  const failed = await api(server, '/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: 'Caption Cat', url: 'https://captoin-cat.example/' },
  });
  const failedSiteId = String(failed.body.site_id);
  await moveSite(server.deps, failedSiteId, 'crawl_failed');
  const paid = await api(server, '/api/v1/submit-site', {
    method: 'POST',
    key,
    json: { name: 'Deck Doctor', url: 'https://deck-doctor.example/' },
  });
  const refundedSiteId = String(paid.body.site_id);
  await queryRows(
    server.deps.db,
    sql`UPDATE sites SET via = 'payment', stripe_payment_intent_id = 'pi_local_screenshot' WHERE id = ${refundedSiteId}::uuid`,
  );
  await moveSite(server.deps, refundedSiteId, 'rejected', { reason: 'This is a slide template shop, not an AI tool.' });
  await refundRejectedSubmission(server.deps, refundedSiteId);
  const mailToken = (await readMailSettings(server.deps, String(account.body.account_id))).token;
  return {
    email,
    toolSlug,
    liveSiteId,
    failedSiteId,
    refundedSiteId,
    mailToken,
    reviewSiteId,
    checkoutPath: new URL(String(sponsored.body.checkout_url)).pathname,
    consentPath,
  };
}

async function shoot(page: Page, server: NodeServer, shot: Shot, setup: Setup, width: 390 | 1280) {
  await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
  await page.goto(`${server.url}${shot.path(setup)}`, { waitUntil: 'load' });
  await page.evaluate(async () => {
    for (const img of document.images) {
      img.loading = 'eager';
      await img.decode().catch(() => {});
    }
  });
  const full = await page.evaluate(() => document.documentElement.scrollHeight);
  const height = Math.min(full, shot.height?.[width] ?? DEFAULT_HEIGHT[width]);
  const file = join(OUT, `${shot.name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height } });
  console.log(`${file} ${Math.round(statSync(file).size / 1024)} KB`);
}

async function main() {
  const only = process.argv.slice(2);
  const unknown = only.filter((name) => !PAGES.some((p) => p.name === name));
  if (unknown.length)
    throw new Error(`unknown page ${unknown.join(', ')}; one of ${PAGES.map((p) => p.name).join(', ')}`);
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
  const server = await startNodeServer(
    { HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_TOKEN },
    { overrides: { queue: recordingQueue }, localSweeper: false },
  );
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
      seeds.push({
        name: `Assistant ${i + 1}`,
        description: 'A general-purpose AI assistant for everyday tasks.',
        categories: ['chat'],
        publishedAt: new Date(Date.now() - (200 + i) * hour),
      });
    }
    const seeded = await seedTools(server.deps.db, seeds, server.url);
    const setup = await setUp(server, seeded.find((s) => s.name === 'Pixel Forge')!.slug);
    mkdirSync(OUT, { recursive: true });
    const profile = async (): Promise<BrowserContext> => {
      const context = await browser.newContext();
      await context.route('**/*', (route) =>
        new URL(route.request().url()).origin === server.url || route.request().url().startsWith('data:')
          ? route.continue()
          : route.abort(),
      );
      return context;
    };
    const visitor = await (await profile()).newPage();
    const member = await (await profile()).newPage();
    await signIn(server, member, setup.email);
    for (const shot of PAGES.filter((p) => !only.length || only.includes(p.name))) {
      for (const width of [390, 1280] as const)
        await shoot(shot.signedIn ? member : visitor, server, shot, setup, width);
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
