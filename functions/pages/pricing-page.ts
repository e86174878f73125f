// GET /pricing – the plans and memberships with their prices and what each gets, rendered from the plan table
// (src/catalog/plans.ts, src/submissions/plan-words.ts) and the configured quotas; no database statement.
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import {
  membershipPrices,
  membershipTiers,
  planPlacement,
  planPrices,
  type MembershipTier,
  type PlanKind,
} from '../../src/catalog/plans';
import type { Config } from '../../src/config';
import {
  amountText,
  membershipSummary,
  membershipTitles,
  planBenefits,
  planKinds,
  planTitles,
} from '../../src/submissions/plan-words';
import type { AppEnv } from '../types';
import { renderPage } from './layout';
import { SIGNUP_CLOSED_TEXT } from './account/signup-words';

/** `/ once` or `/ month` after the amount. */
const per = (recurring: boolean) => (recurring ? 'a month' : 'once');

function planCard(plan: PlanKind) {
  const price = planPrices[plan];
  const b = planBenefits[plan];
  return html`<section class="plan${planPlacement[plan].isFeature ? ' highlight' : ''}" id="plan-${plan}" aria-labelledby="plan-${plan}-title">
<h3 id="plan-${plan}-title">${planTitles[plan]}</h3>
<p class="price">${amountText(price)} <span class="per">${per(price.recurring)}</span></p>
<p>${b.summary}</p>
<ul>
<li><strong>Placement:</strong> ${b.placement}</li>
<li><strong>Badge:</strong> ${b.badge}</li>
<li><strong>Link:</strong> ${b.link}</li>
<li><strong>How long:</strong> ${b.duration}</li>
</ul>
<p><a class="button primary" href="/submit?plan=${plan}">Submit with ${planTitles[plan]}</a></p>
</section>`;
}

function membershipCard(tier: MembershipTier, limits: Config['dailyLimits']) {
  const price = membershipPrices[tier];
  return html`<section class="plan" id="membership-${tier}" aria-labelledby="membership-${tier}-title">
<h3 id="membership-${tier}-title">${membershipTitles[tier]}</h3>
<p class="price">${amountText(price)} <span class="per">${per(price.recurring)}</span></p>
<p>${membershipSummary(tier, limits)}</p>
<ul>
<li>A monthly subscription; cancel at any time from your account.</li>
<li>Each submission is still reviewed by an editor before it goes live.</li>
</ul>
<p><a class="button primary" href="/account/membership?tier=${tier}">Join as ${membershipTitles[tier]}</a></p>
</section>`;
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.get('/pricing', (c) => {
    const { config } = c.get('deps');
    c.header('Cache-Control', 'public, max-age=300');
    return renderPage(c, {
      title: 'Pricing – tooldir',
      description: `List your AI tool on tooldir: ${planKinds.map((p) => `${planTitles[p]} ${amountText(planPrices[p])}`).join(', ')}, or a membership.`,
      current: 'pricing',
      body: () => html`<h1>Pricing</h1>
<p>Every tool is reviewed by an editor before it is published. Pay per listing, or become a member and submit without paying per tool.</p>
${config.signupOpen ? '' : html`<p class="notice" id="signup-closed">${SIGNUP_CLOSED_TEXT}</p>`}
<h2>Listings</h2>
<div class="plans">${planKinds.map(planCard)}</div>
<h2>Memberships</h2>
<div class="plans">${membershipTiers.map((tier) => membershipCard(tier, config.dailyLimits))}</div>
<p class="muted small">Prices in US dollars, as charged at checkout. The buttons ask you to sign in first${config.signupOpen ? ' (a new e-mail address gets an account)' : ''}, then take you on to the form or to your membership choice.</p>`,
    });
  });
}
