// The operator's page (/admin) shows the directory's daily totals and the most viewed tools (docs/stats.md).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../../src/db/client';
import { rollUpStats } from '../../../src/stats/roll-up';
import { addDays } from '../../../src/stats/utc-day';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../helpers/test-app';
import { seedTools } from '../../helpers/live-tools';

let t: TestApp;
const today = '2026-11-25';
beforeAll(async () => {
  t = await createTestApp({ overrides: { now: () => new Date(`${today}T12:00:00Z`) } });
});
afterAll(() => t?.close());

async function counters(day: string, slug: string, counts: Record<string, number>) {
  for (const [counter, n] of Object.entries(counts)) {
    await queryRows(
      t.deps.db,
      sql`INSERT INTO stat_counters (day, slug, counter, n) VALUES (${day}::date, ${slug}, ${counter}, ${n})`,
    );
  }
}

it('lists the totals of every day of the last 30, the placements and the top tools by views', async () => {
  const [quiet, busy, sponsor] = await seedTools(t.deps.db, [
    { name: 'Quiet Tool' },
    { name: 'Busy Tool', isFeature: true },
    { name: 'Sponsor Tool', isSponsor: true },
  ]);
  const yesterday = addDays(today, -1);
  await counters(yesterday, busy!.slug, { views: 90, clicks: 9, impressions_featured: 300 });
  await counters(today, busy!.slug, { views: 10, clicks: 1 });
  await counters(today, quiet!.slug, { views: 3, impressions_standard: 40, badge_loads: 5 });
  await counters(today, sponsor!.slug, { impressions_sponsored: 60 });
  // Older than 30 days: not on the page.
  await counters(addDays(today, -40), quiet!.slug, { views: 1000 });
  await rollUpStats(t.deps, { days: [addDays(today, -40), yesterday, today] });

  const login = await t.request('/admin/login', {
    method: 'POST',
    body: new URLSearchParams({ token: ADMIN_TOKEN }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const page = await (await t.request('/admin', { headers: { cookie } })).text();
  expect(page).toContain('Directory statistics, 2026-10-27 to 2026-11-25');
  expect(page).toContain('Card impressions by placement: 60 sponsored, 300 featured, 40 standard.');
  const top = [...page.matchAll(/<tr><td data-label="Tool"><a href="\/tools\/([^"]+)">([^<]+)<\/a>/g)].map((m) => m[2]);
  expect(top).toEqual(['Busy Tool', 'Quiet Tool', 'Sponsor Tool']);
  expect(page).toContain(
    '<td data-label="Views">100</td><td data-label="Clicks">10</td><td data-label="Impressions">300</td><td data-label="Badge loads">0</td><td data-label="Click-through">2.5 %</td>',
  );
  expect(page).toContain(
    '<tr><td data-label="Day">2026-11-25</td><td data-label="Views">13</td><td data-label="Clicks">1</td><td data-label="Impressions">100</td><td data-label="Badge loads">5</td></tr>',
  );
  expect(page).toContain(
    '<tr><td data-label="Day">2026-11-24</td><td data-label="Views">90</td><td data-label="Clicks">9</td><td data-label="Impressions">300</td><td data-label="Badge loads">0</td></tr>',
  );
  expect(page).toContain('<tr><td data-label="Day">2026-10-27</td><td data-label="Views">0</td>');
  expect(page.match(/<td data-label="Day">/g)).toHaveLength(30);
  expect(page).not.toContain('1,000');
});

it('is not shown without the operator session', async () => {
  const page = await (await t.request('/admin')).text();
  expect(page).not.toContain('Directory statistics');
});
