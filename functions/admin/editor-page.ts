// GET /admin – the editor's review queue (pending edits, recent crawl failures) and the directory's statistics;
// POST /admin/login, /admin/logout, /admin/sites/{site_id}/review, /admin/edits/{edit_id}/review,
// /admin/disputes/{claim_id}/decision
import { listListingsWithTrouble } from '../../src/health/listings-with-trouble';
import { troubleListView } from './health-views';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { getCookie, setCookie, deleteCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { timingSafeEqual } from '../../src/crypto';
import { isServiceError } from '../../src/errors';
import { isUuid } from '../../src/ids';
import { decideReview } from '../../src/pipeline/decide-review';
import { decideEdit, listPendingEdits } from '../../src/pipeline/decide-edit';
import {
  createEditorSession,
  deleteEditorSession,
  findEditorSession,
  listReviewQueue,
} from '../../src/pipeline/editor-sessions';
import { listRecentCrawlFailures } from '../../src/pipeline/recent-crawl-failures';
import { enforceRateLimit } from '../middleware/rate-limit';
import { clientIp } from '../middleware/client-ip';
import { renderPage } from '../pages/layout';
import { cookieIsSecure } from '../pages/account/cookies';
import { loginView, queueView } from './editor-page-views';
import { directoryStatsView } from './stats-views';
import { disputesView } from './dispute-views';
import { listOpenDisputes } from '../../src/claims/disputes';
import { decideDispute } from '../../src/claims/decide-dispute';
import { getDirectoryStats } from '../../src/stats/directory-stats';
import { listCategories } from '../../src/categories/categories';
import { toolCategoriesSchema } from '../../src/categories/category-rules';
import { categorySlugsOfSites } from '../../src/categories/site-categories';
import type { AppEnv } from '../types';
import { CSRF_FIELD, isSameOrigin } from '../middleware/csrf';
import { pageFormLimit } from '../pages/form-limit';

const COOKIE = 'tooldir_editor';
/** Secure except plain http on a loopback host (local `npm start`), where browsers would drop the cookie. */
const cookieOptions = (c: Context<AppEnv>) =>
  ({ path: '/admin', httpOnly: true, secure: cookieIsSecure(c), sameSite: 'Strict' }) as const;

/** Fixed outcome notices: the redirect carries a code, never text, so nothing is reflected into the page. */
const NOTICES = {
  published: 'Published.',
  rejected: 'Rejected (or taken down).',
  conflict:
    'Not applied: approve works from pending_review (or republishes a taken-down tool); reject works from pending_review or live.',
  invalid: 'Unknown decision or site.',
  edit_approved: 'Edit approved: the public page shows the new text.',
  edit_rejected: 'Edit rejected.',
  edit_conflict: 'Edit not applied: it was already decided or replaced, or the tool is no longer live.',
  edit_name_taken: 'Edit not applied: another tool has this name now. Reject the edit.',
  categories: 'Not applied: categories must be at most 3 distinct known category slugs.',
  dispute_awarded: "Dispute decided: the listing is now in the claimant's account; both accounts were mailed.",
  dispute_kept: 'Dispute decided: the listing stays with its owner; the claimant was mailed.',
  dispute_stale:
    'Not applied: this dispute was already decided, or the listing changed owner since the claim (keep it to close the dispute).',
  dispute_unknown: 'Unknown dispute or decision.',
} as const;
type Notice = keyof typeof NOTICES;

const page = (c: Context<AppEnv>, body: Parameters<typeof renderPage>[1]['body'], status?: 200) => {
  c.header('Cache-Control', 'no-store');
  return renderPage(c, { title: 'Editor – tooldir', description: 'Review queue', body, status, noindex: true });
};

/** Reads an urlencoded form; anything else is an empty form (and then fails the CSRF check). */
async function form(c: Context<AppEnv>): Promise<Record<string, string>> {
  if (!(c.req.header('content-type') ?? '').startsWith('application/x-www-form-urlencoded')) return {};
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** A form post a browser says is not same-origin (middleware/csrf.ts) is refused before the CSRF token is looked at. */
const crossOrigin = async (c: Context<AppEnv>) => !(await isSameOrigin(c));

/**
 * The form of a signed-in editor, sent from our page: a session, a same-origin post and the session's CSRF token.
 * Anything else is the 403 sign-in page, answered instead of the decision.
 */
async function editorForm(c: Context<AppEnv>): Promise<Record<string, string> | Response> {
  const session = await findEditorSession(c.get('deps'), getCookie(c, COOKIE));
  const fields = await form(c);
  if (
    !session ||
    (await crossOrigin(c)) ||
    !fields[CSRF_FIELD] ||
    !timingSafeEqual(fields[CSRF_FIELD], session.csrfToken)
  ) {
    c.status(403);
    return page(c, () =>
      loginView('Your session expired or the form was not sent from this page. Please sign in again.'),
    );
  }
  return fields;
}

/**
 * GET /admin: the review queue, recent crawl failures, pending edits, the listings whose daily check fails or that
 * moved (with Take down), open claim disputes and the statistics; the sign-in form without a session.
 */
async function showEditorPage(c: Context<AppEnv>) {
  const deps = c.get('deps');
  const session = await findEditorSession(deps, getCookie(c, COOKIE));
  if (!session) return page(c, () => loginView());
  const code = c.req.query('notice');
  const notice = code && code in NOTICES ? NOTICES[code as Notice] : undefined;
  const [items, failures, edits, { categories }, stats, disputes, troubled] = await Promise.all([
    listReviewQueue(deps),
    listRecentCrawlFailures(deps),
    listPendingEdits(deps),
    listCategories({ deps }),
    getDirectoryStats(deps),
    listOpenDisputes(deps),
    listListingsWithTrouble(deps),
  ]);
  const bySite = await categorySlugsOfSites(
    deps,
    items.map((i) => i.site_id),
  );
  const withCategories = items.map((i) => ({ ...i, categories: bySite.get(i.site_id) ?? [] }));
  return page(
    c,
    () =>
      html`${queueView(
        withCategories,
        failures,
        session.csrfToken,
        notice,
        edits,
        categories.map((cat) => cat.slug),
      )}${troubleListView(troubled, session.csrfToken)}${disputesView(disputes, session.csrfToken)}${directoryStatsView(stats)}`,
  );
}

/** POST /admin/login: the operator token, compared in constant time, starts an editor session. */
async function logIn(c: Context<AppEnv>) {
  await enforceRateLimit(c, 'signin', clientIp(c));
  const deps = c.get('deps');
  const { token } = await form(c);
  const expected = deps.config.adminToken;
  if ((await crossOrigin(c)) || !expected || !token || !timingSafeEqual(token, expected)) {
    c.status(401);
    return page(c, () => loginView('That operator token is not valid.'));
  }
  const session = await createEditorSession(deps);
  setCookie(c, COOKIE, session.token, { ...cookieOptions(c), maxAge: session.maxAgeSeconds });
  return c.redirect('/admin', 303);
}

/** POST /admin/logout: ends the session when the form carries its CSRF token; the cookie goes either way. */
async function logOut(c: Context<AppEnv>) {
  const deps = c.get('deps');
  const token = getCookie(c, COOKIE);
  const session = await findEditorSession(deps, token);
  const csrf = (await form(c))[CSRF_FIELD];
  if (session && csrf && timingSafeEqual(csrf, session.csrfToken)) await deleteEditorSession(deps, token);
  deleteCookie(c, COOKIE, cookieOptions(c));
  return c.redirect('/admin', 303);
}

/** POST /admin/sites/{site_id}/review: approve or reject a crawled site (and set its categories). */
async function reviewSite(c: Context<AppEnv>) {
  const fields = await editorForm(c);
  if (fields instanceof Response) return fields;
  const siteId = c.req.param('site_id') ?? '';
  const decision = fields.decision === 'approve' || fields.decision === 'reject' ? fields.decision : undefined;
  let notice: Notice = 'invalid';
  // The form always carries the field (prefilled with the current slugs); an empty field clears them.
  const categories =
    fields.categories === undefined
      ? { success: true as const, data: undefined }
      : toolCategoriesSchema.safeParse(fields.categories.split(/[\s,]+/).filter(Boolean));
  if (!categories.success) notice = 'categories';
  else if (decision && isUuid(siteId)) {
    try {
      const record = await decideReview(c.get('deps'), siteId, {
        decision,
        reason: fields.reason?.slice(0, 1000),
        categories: categories.data,
      });
      notice = record.status === 'live' ? 'published' : 'rejected';
    } catch (error) {
      if (!isServiceError(error)) throw error;
      notice = error.code === 'conflict' ? 'conflict' : error.details.field === 'categories' ? 'categories' : 'invalid';
    }
  }
  return c.redirect(`/admin?notice=${notice}`, 303);
}

/** POST /admin/edits/{edit_id}/review: approve or reject a live tool's pending edit. */
async function reviewEdit(c: Context<AppEnv>) {
  const fields = await editorForm(c);
  if (fields instanceof Response) return fields;
  const decision = fields.decision === 'approve' || fields.decision === 'reject' ? fields.decision : undefined;
  let notice: Notice = 'invalid';
  if (decision) {
    try {
      const edit = await decideEdit({
        deps: c.get('deps'),
        input: { edit_id: c.req.param('edit_id') ?? '', decision, reason: fields.reason?.slice(0, 1000) },
      });
      notice = edit.status === 'approved' ? 'edit_approved' : 'edit_rejected';
    } catch (error) {
      if (!isServiceError(error)) throw error;
      notice =
        error.code === 'already_submitted'
          ? 'edit_name_taken'
          : error.code === 'not_found'
            ? 'invalid'
            : 'edit_conflict';
    }
  }
  return c.redirect(`/admin?notice=${notice}`, 303);
}

/** POST /admin/disputes/{claim_id}/decision: give a disputed listing to the claimant, or keep it with its owner. */
async function decideDisputeForm(c: Context<AppEnv>) {
  const fields = await editorForm(c);
  if (fields instanceof Response) return fields;
  const decision = fields.decision === 'award' || fields.decision === 'keep' ? fields.decision : undefined;
  let notice: Notice = 'dispute_unknown';
  if (decision) {
    try {
      const decided = await decideDispute({
        deps: c.get('deps'),
        input: { claim_id: c.req.param('claim_id') ?? '', decision },
      });
      notice = decided.outcome === 'awarded' ? 'dispute_awarded' : 'dispute_kept';
    } catch (error) {
      if (!isServiceError(error)) throw error;
      notice = error.code === 'not_found' ? 'dispute_unknown' : 'dispute_stale';
    }
  }
  return c.redirect(`/admin?notice=${notice}`, 303);
}

export function register(app: OpenAPIHono<AppEnv>) {
  // Every form below (login, logout, decisions) is bounded before it is read, the sign-in included.
  app.use('/admin/*', pageFormLimit);
  app.get('/admin', showEditorPage);
  app.post('/admin/login', logIn);
  app.post('/admin/logout', logOut);
  app.post('/admin/sites/:site_id/review', reviewSite);
  app.post('/admin/edits/:edit_id/review', reviewEdit);
  app.post('/admin/disputes/:claim_id/decision', decideDisputeForm);
}
