import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipPrices, membershipTiers, planPrices, SPONSOR_SLOTS } from '../../../src/catalog/plans';
import { amountText, membershipSummary, planBenefits, planKinds, priceText } from '../../../src/submissions/plan-words';
import { createTestApp, type TestApp } from '../../helpers/test-app';
import { PageClient, uniqueIp } from './account/account-client';

// /pricing is rendered from the plan table and the configured quotas (issue 20, point 2): nothing spelled twice.
let t: TestApp;
beforeAll(async () => {
  // Quotas from configuration, not from a copy: other values than the defaults must show.
  t = await createTestApp({ env: { MEMBER_DAILY_LIMIT: '7', MEMBER_FEATURE_DAILY_LIMIT: '12' } });
});
afterAll(() => t.close());

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/'/g, '&#39;').replace(/</g, '&lt;');

describe('/pricing', () => {
  it('is public, cacheable, in the header as the current page, with every plan, price and benefit', async () => {
    const res = await t.request('/pricing');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const html = await res.text();
    expect(html).toContain('<a href="/pricing" aria-current="page">Pricing</a>');
    expect(html).toContain('<link rel="canonical" href="http://tooldir.test/pricing">');
    expect(html).toMatch(/<h1>Pricing<\/h1>/);
    expect([amountText(planPrices.basic), amountText(planPrices.featured), amountText(planPrices.sponsored)]).toEqual([
      '15.90 USD',
      '19.90 USD',
      '29.90 USD',
    ]);
    for (const plan of planKinds) {
      const price = planPrices[plan];
      expect(html).toContain(`<section class="plan${plan === 'featured' ? ' highlight' : ''}" id="plan-${plan}"`);
      expect(html).toContain(`${amountText(price)} <span class="per">${price.recurring ? 'a month' : 'once'}</span>`);
      for (const text of Object.values(planBenefits[plan])) expect(html).toContain(escape(text));
      expect(html).toContain(`<a class="button primary" href="/submit?plan=${plan}">`);
    }
    expect(html).toContain(`the ${SPONSOR_SLOTS} newest sponsors are shown`);
    expect(html).toContain('29.90 USD <span class="per">a month</span>');
  });

  it('shows the memberships with their prices, covered plans and the configured daily quotas', async () => {
    const html = await (await t.request('/pricing')).text();
    for (const tier of membershipTiers) {
      expect(html).toContain(`${amountText(membershipPrices[tier])} <span class="per">a month</span>`);
      expect(html).toContain(`<a class="button primary" href="/account/membership?tier=${tier}">`);
      expect(html).toContain(membershipSummary(tier, { member: 7, memberFeature: 12 }));
    }
    expect(html).toContain('Basic listings without paying per tool: up to 7 submissions a day (the UTC day).');
    expect(html).toContain(
      'Basic and featured listings without paying per tool: up to 12 submissions a day (the UTC day).',
    );
    expect(html).not.toContain('New sign-ups are closed');
  });

  it('signed in: the same page, private to the browser', async () => {
    const client = new PageClient(t, uniqueIp());
    await client.signIn(`pricing-${crypto.randomUUID().slice(0, 6)}@example.com`);
    const { res, html } = await client.page('/pricing');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(html).toContain('<a href="/account">Account</a>');
  });

  it('llms.txt lists the same plans and prices, and the pages to buy them', async () => {
    const text = await (await t.request('/llms.txt')).text();
    expect(text).toContain('## Plans and prices (http://tooldir.test/pricing)');
    expect(text).toContain('- basic: 15.90 USD once.');
    expect(text).toContain('- sponsored: 29.90 USD a month.');
    expect(text).toContain(
      `- membership memberFeature (Member with featured): ${amountText(membershipPrices.memberFeature)} a month. Basic and featured listings without paying per tool: up to 12 submissions a day`,
    );
    expect(text).toContain('http://tooldir.test/submit');
  });
});

describe('the docs', () => {
  it("docs/pages.md and the README state the plan table's prices and slot count, not other ones", () => {
    const pages = readFileSync(resolve(import.meta.dirname, '../../../docs/pages.md'), 'utf8');
    const readme = readFileSync(resolve(import.meta.dirname, '../../../README.md'), 'utf8');
    for (const plan of planKinds) expect(pages).toContain(`| ${plan} | ${priceText(planPrices[plan])} |`);
    for (const tier of membershipTiers) expect(pages).toContain(`\`${tier}\` (${priceText(membershipPrices[tier])})`);
    expect(pages).toContain(`(the ${SPONSOR_SLOTS} newest sponsors)`);
    expect(readme).toContain(
      `basic ${amountText(planPrices.basic).replace(' USD', '')} and featured ${amountText(planPrices.featured).replace(' USD', '')} USD once, sponsored ${amountText(planPrices.sponsored)} a month`,
    );
  });
});

describe('/pricing with SIGNUP=closed', () => {
  it('says how to get an account', async () => {
    const closed = await createTestApp({ env: { SIGNUP: 'closed' } });
    try {
      const html = await (await closed.request('/pricing')).text();
      expect(html).toContain(
        '<p class="notice" id="signup-closed">New sign-ups are closed: only the operator who runs this directory can open an account.',
      );
      expect(html).not.toContain('a new e-mail address gets an account');
      const signIn = await (await closed.request('/account/sign-in')).text();
      expect(signIn).toContain('<p class="notice" id="signup-closed">New sign-ups are closed');
    } finally {
      await closed.close();
    }
  });
});
