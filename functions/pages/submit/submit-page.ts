// GET/POST /submit – submit a tool from the website: the same verb as POST /api/v1/submit-site
// (submitSiteIdempotently), CSRF-protected, one submission per rendered form (its Idempotency-Key), no JS needed.
import { waitForFirstRun } from '../../../src/idempotency/wait-for-first-run';
import { Hono, type Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { actorForWebSession } from '../../../src/accounts/actor';
import { readQuotaStanding } from '../../../src/accounts/quota-standing';
import { quotaResetsAt } from '../../../src/accounts/memberships';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { listCategories } from '../../../src/categories/categories';
import { isServiceError, ServiceError } from '../../../src/errors';
import { isValidIdempotencyKey } from '../../../src/idempotency/key';
import { submitSiteIdempotently } from '../../../src/idempotency/submit';
import { describeDuplicate, duplicateWords } from '../../../src/submissions/already-submitted';
import { normalizeName } from '../../../src/submissions/name';
import { defaultPlan, planKind, planNames, type PlanKind, type PlanName } from '../../../src/catalog/plans';
import type { SubmitResult } from '../../../src/submissions/submit';
import { submitInputSchema, type SubmitInput } from '../../../src/submissions/submit-input';
import { canonicalUrl, urlNotices } from '../../../src/submissions/url';
import { estimateWait } from '../../../src/submissions/wait-estimate';
import { usualReviewTime } from '../../../src/submissions/review-time';
import type { AppEnv } from '../../types';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { errorPage } from '../account';
import { checkSessionCsrf } from '../account/csrf';
import { formatTime } from '../account/layout';
import { currentSession } from '../account/session';
import { signInPath } from '../next-path';
import { renderDocument } from '../shell/document';
import { categoryError, validationErrors } from './submit-errors';
import { submitForm, type SubmitErrors, type SubmitValues } from './submit-form';
import { formBodyLimit } from '../../middleware/body-limit';

/** A plan name from a query or a form, as the plan it stands for (`pro` is sponsored); anything else is none. */
const planFrom = (value: unknown): PlanKind | undefined =>
  typeof value === 'string' && (planNames as readonly string[]).includes(value)
    ? planKind(value as PlanName)
    : undefined;

/** Where sign-in brings a signed-out person back to: the form, with the plan they chose. */
const submitPathFor = (plan: PlanKind | undefined) => (plan ? `/submit?plan=${plan}` : '/submit');

function page(c: Context<AppEnv>, main: ReturnType<typeof html>, status: ContentfulStatusCode = 200) {
  c.header('Cache-Control', 'no-store');
  return renderDocument(c, {
    title: 'Submit a tool – tooldir',
    head: html`<meta name="robots" content="noindex">`,
    main: html`<h1>Submit a tool</h1>${main}`,
    status,
    signedIn: true,
    current: 'submit',
    narrow: true,
  });
}

interface Rendering {
  values: SubmitValues;
  errors?: SubmitErrors;
  status?: ContentfulStatusCode;
  /** Today's included submissions are used up: the checkout link of this one, to pay for it now. */
  payUrl?: string;
  notice?: string;
}

/** The form with everything it shows, read in parallel (four statements), and a fresh Idempotency-Key. */
async function renderForm(c: Context<AppEnv>, session: WebSession, r: Rendering) {
  const deps = c.get('deps');
  const [standing, { categories }, estimate, reviewTime] = await Promise.all([
    readQuotaStanding(deps, session.accountId),
    listCategories({ deps }),
    estimateWait({ deps }),
    usualReviewTime({ deps }),
  ]);
  if (!standing) throw new ServiceError('unauthorized', 'Your account no longer exists. Sign in again.');
  const intro = html`<p>Tell us the tool's name and website. An editor reviews every submission before it is published; <a href="/pricing">Pricing</a> says what each plan gets.</p>`;
  return page(
    c,
    html`${intro}${submitForm({
      values: r.values,
      errors: r.errors ?? {},
      standing,
      categories,
      estimate,
      reviewTime,
      refundOnRejection: deps.config.refundOnRejection,
      csrfToken: session.csrfToken,
      idempotencyKey: crypto.randomUUID(),
      payUrl: r.payUrl,
      notice: r.notice,
    })}`,
    r.status,
  );
}

/** The urlencoded (or multipart) form, every category box included; anything else is a bad request. */
async function readSubmitForm(c: Context<AppEnv>): Promise<{ fields: Record<string, string>; categories: string[] }> {
  const type = c.req.header('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) {
    throw new ServiceError('invalid_request', 'Send this form from the page.');
  }
  const body = await c.req.parseBody({ all: true });
  const fields: Record<string, string> = {};
  let categories: string[] = [];
  for (const [name, value] of Object.entries(body)) {
    const strings = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
    if (name === 'categories') categories = strings;
    else if (strings[0] !== undefined) fields[name] = strings[0];
  }
  return { fields, categories };
}

const stillRunning = (c: Context<AppEnv>) =>
  page(
    c,
    html`<p class="notice" role="status">Your submission is still being processed. Wait a moment, then reload this page: your browser will ask to send the form again, and that is safe (the same form never submits twice).</p>`,
    409,
  );

/** What the verb refused, on the form: a duplicate with a link, a category, a key reused, a checkout failure. */
async function refusal(
  c: Context<AppEnv>,
  session: WebSession,
  values: SubmitValues,
  input: SubmitInput,
  error: ServiceError,
) {
  const deps = c.get('deps');
  if (error.code === 'already_submitted') {
    const url = new URL(input.url);
    const dup = await describeDuplicate(deps.db, actorForWebSession(session), {
      canonicalUrl: canonicalUrl(url),
      normalizedName: normalizeName(input.name),
    });
    // The words the API's 409 says too (duplicateWords), with the page as a link.
    const { lead, link } = duplicateWords(dup);
    const words = link ? html`${lead} <a href="${link.path}">${link.text}</a>.` : lead;
    return renderForm(c, session, { values, errors: { [dup.field]: words }, status: 409 });
  }
  const category = categoryError(error);
  if (category)
    return renderForm(c, session, {
      values,
      errors: { categories: category },
      status: error.status as ContentfulStatusCode,
    });
  if (error.code === 'idempotency_key_reused') {
    const text = 'This form was already sent with other details. Check them and press Submit again.';
    return renderForm(c, session, { values, errors: { form: text }, status: 422 });
  }
  if (error.code === 'plan_unavailable' || error.code === 'checkout_failed') {
    const text =
      'We could not start the checkout for this plan just now. Nothing was charged or submitted; try again in a minute.';
    return renderForm(c, session, { values, errors: { plan: text }, status: 503 });
  }
  throw error;
}

/** GET /submit: the form, for a signed-in person; anyone else signs in first and comes back with the plan. */
async function showSubmitForm(c: Context<AppEnv>) {
  const plan = planFrom(c.req.query('plan'));
  const session = await currentSession(c);
  if (!session) return c.redirect(signInPath(submitPathFor(plan)), 303);
  return renderForm(c, session, {
    values: { name: '', url: '', email: '', mcp_url: '', plan: plan ?? defaultPlan, categories: [] },
  });
}

/** What the form shows again on an error: what was typed, bounded. */
const typedValues = (
  fields: Record<string, string>,
  categories: string[],
  plan: PlanKind | undefined,
): SubmitValues => ({
  name: (fields.name ?? '').slice(0, 400),
  url: (fields.url ?? '').slice(0, 4096),
  email: (fields.email ?? '').slice(0, 400),
  mcp_url: (fields.mcp_url ?? '').slice(0, 4096),
  plan: plan ?? defaultPlan,
  categories: categories.slice(0, 50).map((s) => s.slice(0, 100)),
});

/** The account's `submit` bucket, the API's (docs/decisions.md "Rate limits"); past it, the form with a 429 and when to retry. */
async function refusedByRateLimit(c: Context<AppEnv>, session: WebSession, values: SubmitValues) {
  try {
    await enforceRateLimit(c, 'submit', session.accountId);
    return undefined;
  } catch (error) {
    if (!isServiceError(error) || error.code !== 'rate_limited') throw error;
    const seconds = error.details.retryAfterSeconds ?? 60;
    c.header('Retry-After', String(seconds));
    const text = `Too many submissions from your account in the last minute. Wait ${seconds} ${seconds === 1 ? 'second' : 'seconds'} and press Submit again.`;
    return renderForm(c, session, { values, errors: { form: text }, status: 429 });
  }
}

/**
 * POST /submit: checks the session and the form, then submits through the verb of the API, once per rendered form
 * (its Idempotency-Key); a member's queued submission goes to its page, anyone else to the checkout.
 */
async function submitFromForm(c: Context<AppEnv>) {
  const { fields, categories } = await readSubmitForm(c);
  const plan = planFrom(fields.plan);
  const session = await currentSession(c);
  // A session that ended while the form was open: sign in again and come back to the form with the plan.
  if (!session) return c.redirect(signInPath(submitPathFor(plan)), 303);
  await checkSessionCsrf(c, fields, session.csrfToken);
  const key = fields.idempotency_key ?? '';
  if (!isValidIdempotencyKey(key))
    throw new ServiceError('invalid_request', 'This form is incomplete. Reload the page and try again.');
  const values = typedValues(fields, categories, plan);
  const parsed = submitInputSchema.safeParse({
    name: values.name,
    url: values.url,
    email: values.email.trim() || undefined,
    mcp_url: values.mcp_url.trim() || undefined,
    plan: fields.plan,
    categories: values.categories.length ? values.categories : undefined,
  });
  if (!parsed.success)
    return renderForm(c, session, { values, errors: validationErrors(parsed.error, values), status: 400 });
  const input = parsed.data;
  const deps = c.get('deps');
  // A bare host got https:// (as on every surface): the person sees the address before anything is submitted or
  // paid, and the next press submits it (docs/contract.md "Submit request").
  const [urlNotice] = urlNotices(values.url);
  if (urlNotice)
    return renderForm(c, session, {
      values: { ...values, url: input.url },
      notice: `${urlNotice}. Check it and press the button again to submit.`,
    });
  const limited = await refusedByRateLimit(c, session, values);
  if (limited) return limited;

  const actor = actorForWebSession(session);
  let result: SubmitResult | 'still_running';
  try {
    // A double click's second request waits for the first one's outcome and answers exactly as it did.
    result = await waitForFirstRun(() => submitSiteIdempotently({ deps, actor, input, idempotencyKey: key }));
  } catch (error) {
    if (!isServiceError(error)) throw error;
    if (error.code === 'idempotency_in_progress') return stillRunning(c);
    return refusal(c, session, values, input, error);
  }
  if (result.kind === 'payment_required' && result.body.reason === 'quota_exceeded') {
    // A member's included plan, but today's quota is used up: say so, and when it starts over, before paying.
    // (The verb decided atomically; a replay of this form's key meets the same stored answer and this page.)
    const standing = await readQuotaStanding(deps, session.accountId);
    const limit = standing?.dailyLimit ?? 0;
    const text = `You have used today's ${limit} submissions included in your membership; they start over at ${formatTime(quotaResetsAt(deps.now()))}. Submit again then without paying, or pay for this one now.`;
    return renderForm(c, session, { values, errors: { plan: text }, status: 402, payUrl: result.body.checkout_url });
  }
  // Post/redirect/get: a member's queued submission to its page, anyone else to the checkout.
  return c.redirect(
    result.kind === 'queued' ? `/account/submissions/${result.body.site_id}` : result.body.checkout_url,
    303,
  );
}

export function register(app: OpenAPIHono<AppEnv>) {
  const submit = new Hono<AppEnv>();
  submit.use('*', formBodyLimit);
  submit.get('/', showSubmitForm);
  submit.post('/', submitFromForm);
  submit.onError(errorPage);
  app.route('/submit', submit);
}
