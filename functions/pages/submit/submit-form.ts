// The /submit form as HTML: what the person typed, the errors next to their fields, the plans with prices and
// what a membership covers today, the categories, and the wait estimate. A view only: submit-page.ts decides.
import { html } from 'hono/html';
import type { QuotaStanding } from '../../../src/accounts/quota-standing';
import type { CategoryWithCount } from '../../../src/categories/categories';
import { MAX_CATEGORIES_PER_TOOL } from '../../../src/categories/category-rules';
import { planPrices, type PlanKind } from '../../../src/catalog/plans';
import { planKinds, planTitles, priceText } from '../../../src/submissions/plan-words';
import { tierCoversPlan } from '../../../src/submissions/rules';
import { waitWords, type WaitEstimate } from '../../../src/submissions/wait-estimate';
import type { ReviewTime } from '../../../src/submissions/review-time';
import { moneyRulesPanel } from '../money-rules';
import { csrfField, formatTime, type Html } from '../account/layout';

export interface SubmitValues {
  name: string;
  url: string;
  email: string;
  /** The tool's MCP endpoint (optional; docs/mcp-servers.md). */
  mcp_url: string;
  plan: PlanKind;
  categories: string[];
}

/** The fields an error can sit next to; `form` is for what belongs to no field. */
export type SubmitField = 'name' | 'url' | 'email' | 'mcp_url' | 'plan' | 'categories' | 'form';
export type SubmitErrors = Partial<Record<SubmitField, Html | string>>;

export interface SubmitFormView {
  values: SubmitValues;
  errors: SubmitErrors;
  standing: QuotaStanding;
  categories: CategoryWithCount[];
  estimate: WaitEstimate;
  /** The usual review time of the last 30 days and the refund rule in force, stated before anyone pays. */
  reviewTime: ReviewTime;
  refundOnRejection: boolean;
  csrfToken: string;
  /** A fresh Idempotency-Key for this rendering of the form (a double POST of it creates one submission). */
  idempotencyKey: string;
  /** The daily limit was reached for an included plan: the checkout link to pay for this one instead. */
  payUrl?: string;
  /** What was read otherwise than typed (a bare host got https://), before anything is submitted. */
  notice?: string;
}

const FIELD_LABELS: Record<Exclude<SubmitField, 'form'>, string> = {
  name: 'Name',
  url: 'Website address',
  email: 'Contact e-mail',
  mcp_url: 'MCP server',
  plan: 'Plan',
  categories: 'Categories',
};

/** aria-invalid + aria-describedby for a field in error. */
const invalid = (errors: SubmitErrors, field: SubmitField) =>
  errors[field] ? html` aria-invalid="true" aria-describedby="${field}-error"` : '';
const fieldError = (errors: SubmitErrors, field: SubmitField) =>
  errors[field] ? html`<span class="field-error" id="${field}-error">${errors[field]}</span>` : '';

/** What the person's membership does for a plan today, after its price. */
function coverage(plan: PlanKind, standing: QuotaStanding): Html | string {
  if (!standing.active || !tierCoversPlan(standing.membership.tier, plan)) return '';
  const left = standing.dailyLimit - standing.usedToday;
  return left > 0
    ? html` <strong class="included">included</strong> <span class="muted">(${left} of ${standing.dailyLimit} left today)</span>`
    : html` <span class="muted">included, but today's ${standing.dailyLimit} are used (they start over at ${formatTime(standing.resetsAt)})</span>`;
}

/** Whether the membership queues this plan at once today (covered and quota left). */
const includedToday = (plan: PlanKind, standing: QuotaStanding) =>
  standing.active && tierCoversPlan(standing.membership.tier, plan) && standing.dailyLimit - standing.usedToday > 0;

/** What pressing Submit does for a plan: the step and the charge ("Continue to payment – 19.90 USD"). */
export function submitStepLabel(plan: PlanKind, standing: QuotaStanding): string {
  return includedToday(plan, standing)
    ? 'Submit – included in your membership'
    : `Continue to payment – ${priceLabel(plan)}`;
}

const priceLabel = (plan: PlanKind) => {
  const price = planPrices[plan];
  const amount = `${(price.amountCents / 100).toFixed(2)} ${price.currency.toUpperCase()}`;
  return price.recurring ? `${amount} a month` : amount;
};

/** The button names the step and the charge of the plan checked (./submit-step-css.ts shows the right label). */
function submitButton(values: SubmitValues, standing: QuotaStanding): Html {
  return html`<button type="submit" class="primary" id="submit-button"><span class="step-now">${submitStepLabel(values.plan, standing)}</span>${planKinds.map(
    (plan) => html`<span class="step-for step-for-${plan}">${submitStepLabel(plan, standing)}</span>`,
  )}</button>`;
}

function errorSummary(errors: SubmitErrors): Html | string {
  const fields = (Object.keys(errors) as SubmitField[]).filter((f) => errors[f]);
  if (!fields.length) return '';
  return html`<div class="error" role="alert" id="error-summary"><p><strong>Your tool was not submitted.</strong></p><ul>${fields.map(
    (f) =>
      f === 'form'
        ? html`<li>${errors.form}</li>`
        : html`<li><a href="#${f === 'plan' ? 'plan-basic' : f === 'categories' ? 'categories' : f}">${FIELD_LABELS[f]}</a>: ${errors[f]}</li>`,
  )}</ul></div>`;
}

/** "published in about 3 days", or a plain statement that there is no estimate yet. */
export function waitPanel(estimate: WaitEstimate): Html {
  const words = waitWords(estimate.seconds);
  const queues = html`${estimate.waiting.crawl} ${estimate.waiting.crawl === 1 ? 'submission waits' : 'submissions wait'} to be crawled and ${estimate.waiting.review} for an editor's review.`;
  return html`<section class="panel" id="wait" aria-labelledby="wait-title"><h2 id="wait-title">How long it takes</h2>
${
  words
    ? html`<p>At the current pace, a tool submitted now is published in <strong id="wait-estimate">${words}</strong>, if the editor approves it. ${queues}</p>
<p class="muted small">An estimate from how fast submissions moved through crawling and review in the last 24 hours; it changes with the queue.</p>`
    : html`<p id="wait-estimate">We cannot estimate the wait right now: too few submissions went through crawling and review in the last 24 hours to know the pace. ${queues}</p>`
}</section>`;
}

export function submitForm(v: SubmitFormView): Html {
  const { values, errors, standing } = v;
  const checked = new Set(values.categories);
  return html`${errorSummary(errors)}${v.notice ? html`<p class="notice" role="status" id="url-notice">${v.notice}</p>` : ''}
<form method="post" action="/submit" novalidate>${csrfField(v.csrfToken)}
<input type="hidden" name="idempotency_key" value="${v.idempotencyKey}">
<div class="field"><label for="name">Name</label>
<input id="name" type="text" name="name" value="${values.name}" required maxlength="100" autocomplete="off"${invalid(errors, 'name')}>
${fieldError(errors, 'name')}<span class="hint">As it should appear in the directory, 2 to 100 characters.</span></div>
<div class="field"><label for="url">Website address</label>
<input id="url" type="url" name="url" value="${values.url}" required maxlength="2048" placeholder="https://" inputmode="url" autocomplete="url"${invalid(errors, 'url')}>
${fieldError(errors, 'url')}<span class="hint">The page people should land on, such as https://acme.com (https:// is added when you leave it out).</span></div>
<div class="field"><label for="email">Contact e-mail <span class="muted">(optional)</span></label>
<input id="email" type="email" name="email" value="${values.email}" maxlength="254" autocomplete="email"${invalid(errors, 'email')}>
${fieldError(errors, 'email')}<span class="hint">Review notices go here. Leave it empty to use your account's address, ${standing.email}.</span></div>
<div class="field"><label for="mcp_url">MCP server <span class="muted">(optional)</span></label>
<input id="mcp_url" type="url" name="mcp_url" value="${values.mcp_url}" maxlength="2048" placeholder="https://" inputmode="url" autocomplete="off"${invalid(errors, 'mcp_url')}>
${fieldError(errors, 'mcp_url')}<span class="hint">Its remote MCP endpoint, such as https://acme.com/mcp.</span></div>
<fieldset class="field" id="plan"${errors.plan ? html` aria-describedby="plan-error"` : ''}><legend>Plan</legend>
${fieldError(errors, 'plan')}
${planKinds.map(
  (
    plan,
  ) => html`<label for="plan-${plan}"><input type="radio" id="plan-${plan}" name="plan" value="${plan}"${values.plan === plan ? ' checked' : ''}>
<span><strong>${planTitles[plan]}</strong> – ${priceText(planPrices[plan])}${coverage(plan, standing)}</span></label>`,
)}
<span class="hint">What each plan gets: <a href="/pricing">Pricing</a>. Included plans are queued at once; any other goes on to the checkout.</span>
${v.payUrl ? html`<p class="actions"><a class="button" id="pay-now" href="${v.payUrl}" rel="noopener">Pay for this one now</a></p>` : ''}
</fieldset>
${
  v.categories.length
    ? html`<fieldset class="field" id="categories"${errors.categories ? html` aria-describedby="categories-error"` : ''}><legend>Categories <span class="muted">(up to ${MAX_CATEGORIES_PER_TOOL}, optional)</span></legend>
${fieldError(errors, 'categories')}
<div class="choices">${v.categories.map(
        (c) =>
          html`<label for="category-${c.slug}"><input type="checkbox" id="category-${c.slug}" name="categories" value="${c.slug}"${checked.has(c.slug) ? ' checked' : ''}> ${c.name}</label>`,
      )}</div></fieldset>`
    : ''
}
${waitPanel(v.estimate)}
${moneyRulesPanel(v.refundOnRejection, v.reviewTime)}
<div class="actions">${submitButton(values, standing)}</div>
</form>`;
}
