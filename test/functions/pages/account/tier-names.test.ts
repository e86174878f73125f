// One name for each tier (issue 31 point 4): /pricing, /account, the membership page, the local checkout, billing,
// llms.txt and the CLI say the catalogue's name (tierDisplayNames) and nothing else: never "Member membership",
// "Member (Membership (monthly))" or "Member (featured)"; /account says what a person without a membership can do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The app first: @hono/zod-openapi extends zod before the CLI's schemas load.
import { createTestApp, type TestApp } from '../../../helpers/test-app';
import { createLocalPayments } from '../../../../src/adapters/payments/local';
import {
  membershipPrices,
  membershipTiers,
  planPrices,
  tierDisplayNames,
  type MembershipTier,
} from '../../../../src/catalog/plans';
import { runCli } from '../../../../src/cli/program';
import { recordingQueue } from '../../../helpers/stripe/payments-fixture';
import { fakeWorld, pendingRecord } from '../../../unit/cli/fake-context';
import { csrfOf, signedInMember, type PageClient } from './account-client';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    overrides: { payments: createLocalPayments(planPrices, undefined, membershipPrices), queue: recordingQueue() },
  });
});
afterAll(() => t.close());

/** The words a person reads: tags out, spaces folded. */
const wordsOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z]+;/g, ' ')
    .replace(/\s+/g, ' ');

/** Each name the tiers went by before (issue 31), and the "tier: none" of an account without one. */
const WRONG = [
  /Member membership/,
  /Member with featured membership/,
  /Member \((featured|Membership)/i,
  /\(Membership/,
  /Membership with featured listings/,
  /Tier: /i,
  /status: none/,
];

function expectOneName(what: string, html: string, names: readonly MembershipTier[]) {
  const words = wordsOf(html);
  for (const wrong of WRONG) expect(words, `${what}: ${wrong}`).not.toMatch(wrong);
  for (const tier of names) expect(words, `${what} names ${tier}`).toContain(tierDisplayNames[tier]);
}

const onceOf = (html: string) => /name="once" value="([0-9A-Za-z]{32})"/.exec(html)?.[1] ?? '';

async function checkoutPage(client: PageClient, tier: MembershipTier): Promise<string> {
  const { html } = await client.page(`/account/membership?tier=${tier}`);
  const started = await client.request('/account/membership/checkout', {
    form: { _csrf: csrfOf(html), once: onceOf(html), tier },
  });
  expect(started.status).toBe(303);
  return (await client.page(new URL(started.headers.get('location')!).pathname)).html;
}

describe('one name for each tier, from the catalogue', () => {
  it('the catalogue names each tier once, and none of the names is a phrase with "membership"', () => {
    expect(tierDisplayNames).toEqual({ member: 'Member', memberFeature: 'Member with featured' });
    for (const tier of membershipTiers) expect(membershipPrices[tier].label).toBe(tierDisplayNames[tier]);
  });

  it('/pricing and llms.txt', async () => {
    expectOneName('/pricing', await (await t.request('/pricing')).text(), membershipTiers);
    const llms = await (await t.request('/llms.txt')).text();
    for (const tier of membershipTiers) expect(llms).toContain(`membership ${tier} (${tierDisplayNames[tier]})`);
  });

  it('/account without a membership says what the person can do instead of a tier of "none"', async () => {
    const { client } = await signedInMember(t, 'none');
    const { html } = await client.page('/account');
    expectOneName('/account (none)', html, membershipTiers); // the offers name both
    expect(wordsOf(html)).toContain(
      'You have no membership. You can still submit any tool and pay for each one (from 15.90 USD once), create API keys and webhooks, and follow your submissions below.',
    );
  });

  it('/account of a member, the membership pages (join, upgrade, included), the local checkout and billing', async () => {
    const { client: none } = await signedInMember(t, 'none');
    for (const tier of membershipTiers) {
      const page = (await none.page(`/account/membership?tier=${tier}`)).html;
      expectOneName(`membership page ${tier}`, page, [tier]);
      expect(page).toContain(`<h1>Join as ${tierDisplayNames[tier]}</h1>`);
      expect(page).toContain(`<dd id="tier-name">${tierDisplayNames[tier]}</dd>`);
      const checkout = await checkoutPage(none, tier);
      expectOneName(`checkout ${tier}`, checkout, [tier]);
      expect(checkout).toContain(`<dd id="tier-name">${tierDisplayNames[tier]}</dd>`);
    }
    const { client: member } = await signedInMember(t, 'member');
    const account = (await member.page('/account')).html;
    expectOneName('/account (member)', account, membershipTiers);
    expect(account).toContain(`Your membership: <strong id="tier">${tierDisplayNames.member}</strong>`);
    expectOneName('upgrade page', (await member.page('/account/membership?tier=memberFeature')).html, [
      'memberFeature',
    ]);
    const { client: featured } = await signedInMember(t, 'memberFeature');
    const included = (await featured.page('/account/membership?tier=member')).html;
    expectOneName('included page', included, ['member', 'memberFeature']);
    expect(wordsOf(included)).toContain(
      `Your membership (${tierDisplayNames.memberFeature}) already includes everything this one covers.`,
    );
    expectOneName('billing page', (await featured.page('/account/billing')).html, ['memberFeature']);
  });

  it('the CLI names the memberships that would have covered a paid submission, with their prices', async () => {
    const key = { TOOLDIR_API_KEY: 'td_test' };
    const cases = [
      [
        pendingRecord(),
        `Members submit basic listings without paying per tool: Member (49.00 USD a month) or Member with featured (99.00 USD a month) (http://127.0.0.1:8787/pricing).`,
      ],
      [
        pendingRecord({ plan: 'featured', reason: 'plan_not_covered' }),
        'Members submit featured listings without paying per tool: Member with featured (99.00 USD a month) (http://127.0.0.1:8787/pricing).',
      ],
      [
        pendingRecord({ plan: 'pro', reason: 'plan_not_covered' }),
        'No membership covers a sponsored listing: it is always paid (http://127.0.0.1:8787/pricing).',
      ],
    ] as const;
    for (const [body, line] of cases) {
      const world = await fakeWorld(() => ({ status: 402, body }), { env: key });
      expect(await runCli(['submit', 'https://acme.example', '--name', 'Acme AI'], world.ctx)).toBe(3);
      expect(world.stdout.text).toContain(`${line}\n`);
      for (const wrong of WRONG) expect(world.stdout.text).not.toMatch(wrong);
    }
    const quota = await fakeWorld(() => ({ status: 402, body: pendingRecord({ reason: 'quota_exceeded' }) }), {
      env: key,
    });
    await runCli(['submit', 'https://acme.example', '--name', 'Acme AI'], quota.ctx);
    expect(quota.stdout.text).not.toContain('Members submit'); // a member out of quota needs no offer
  });
});
