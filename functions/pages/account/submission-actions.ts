// POST /account/submissions/{site_id}/checkout, /retry, /edit and /refresh – the buttons of a submission's page, each
// the very verb its API call runs (submit, POST …/retry, PATCH …, POST …/refresh), with the session's CSRF token;
// post/redirect/get.
import { waitForFirstRun } from '../../../src/idempotency/wait-for-first-run';
import type { Context, Hono } from 'hono';
import type { Actor } from '../../../src/accounts/actor';
import type { WebSession } from '../../../src/accounts/web-sessions';
import type { Deps } from '../../../src/deps';
import { isServiceError, ServiceError } from '../../../src/errors';
import { isValidIdempotencyKey } from '../../../src/idempotency/key';
import { submitSiteIdempotently } from '../../../src/idempotency/submit';
import { editSite } from '../../../src/submissions/edit';
import { editInputSchema } from '../../../src/submissions/edit-input';
import { getSubmission } from '../../../src/submissions/get';
import { readResubmitInput } from '../../../src/submissions/resubmit-input';
import { retrySite } from '../../../src/submissions/retry';
import type { SubmitInput } from '../../../src/submissions/submit-input';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { actorForWebSession } from '../../../src/accounts/actor';
import { checkSessionCsrf } from './csrf';
import { readForm, sessionOrRedirect } from './session';
import { submissionPage } from './submission-page';
import type { EditFormState, UrlFormState } from './submission-sections';
import type { McpFormState } from './mcp-section';
import { refreshFromSite } from '../../../src/health/refresh-from-site';
import { runOnce } from './form-once';

const pagePath = (siteId: string) => `/account/submissions/${siteId}`;

/**
 * Runs an action; a refusal the person can act on (the retry allowance, a wrong state, a taken name) comes back on
 * the submission's page with its status and what was typed. Unknown or foreign ids (404), CSRF failures (403) and
 * the rate limiter's 429 (which answers before any statement runs) are the account area's error pages.
 */
async function refusable(
  c: Context<AppEnv>,
  session: WebSession,
  siteId: string,
  run: () => Promise<Response>,
  edit?: EditFormState,
  urlChange?: UrlFormState,
  mcpChange?: McpFormState,
) {
  try {
    return await run();
  } catch (error) {
    if (!isServiceError(error) || error.code === 'not_found' || error.code === 'forbidden' || error.details.rateLimit)
      throw error;
    return submissionPage(c, session, siteId, { error, edit, urlChange, mcpChange });
  }
}

/** A signed-in POST whose form carries the session's CSRF token, or the response that ends it. */
async function signedInForm(c: Context<AppEnv>) {
  const session = await sessionOrRedirect(c);
  if (session instanceof Response) return session;
  const form = await readForm(c);
  await checkSessionCsrf(c, form, session.csrfToken);
  return { session, form, actor: actorForWebSession(session), siteId: c.req.param('id') ?? '' };
}

/**
 * The submit verb under the page's Idempotency-Key: a second click while the first is still running waits for
 * the first's answer and gets it again, so both land on the same checkout session.
 */
async function submitOnce(deps: Deps, actor: Actor, input: SubmitInput, idempotencyKey: string) {
  try {
    return await waitForFirstRun(() => submitSiteIdempotently({ deps, actor, input, idempotencyKey }));
  } catch (error) {
    if (isServiceError(error) && error.code === 'idempotency_in_progress') {
      throw new ServiceError(
        'idempotency_in_progress',
        'Your fresh checkout link is still being made. Reload this page in a moment.',
        error.details,
      );
    }
    throw error;
  }
}

/** Words for the page when the URL or name was taken by a submission past payment meanwhile. */
const takenMeanwhile = (error: ServiceError) =>
  new ServiceError(
    'already_submitted',
    error.details.site_id
      ? 'You already have a submission of this URL or name past payment, so this one cannot be paid: see your submissions.'
      : 'Another submission of this URL or name was paid for first, so this one can no longer be paid.',
  );

export function register(app: Hono<AppEnv>) {
  // A fresh checkout link: the same submit as POST /api/v1/submit-site with what was submitted last (same record).
  app.post('/submissions/:id/checkout', async (c) => {
    const signed = await signedInForm(c);
    if (signed instanceof Response) return signed;
    const { session, form, actor, siteId } = signed;
    const key = form.idempotency_key ?? '';
    if (!isValidIdempotencyKey(key))
      throw new ServiceError('invalid_request', 'This form is incomplete. Reload the page and try again.');
    const deps = c.get('deps');
    return refusable(c, session, siteId, async () => {
      await enforceRateLimit(c, 'submit', session.accountId);
      const input = await readResubmitInput({ deps, actor, input: { siteId } });
      if (!input) {
        // Paid (or refunded) meanwhile: its page says where it stands. Unknown or not ours: the 404.
        await getSubmission({ deps, actor, input: { siteId } });
        return c.redirect(pagePath(siteId), 303);
      }
      try {
        const result = await submitOnce(deps, actor, input, key);
        // A member with quota left is queued by the same verb, keeping this site_id: no payment at all.
        return c.redirect(
          result.kind === 'payment_required' ? result.body.checkout_url : pagePath(result.body.site_id),
          303,
        );
      } catch (error) {
        if (isServiceError(error) && error.code === 'already_submitted') throw takenMeanwhile(error);
        // The key of a page shown before the record changed (a re-submit through the API meanwhile).
        if (isServiceError(error) && error.code === 'idempotency_key_reused') {
          throw new ServiceError(
            'idempotency_key_reused',
            'This submission changed since the page was shown. Reload the page and try again.',
          );
        }
        throw error;
      }
    });
  });

  // Retry a failed crawl: the verb of POST /api/v1/sites/{site_id}/retry, the same bucket and daily allowance.
  app.post('/submissions/:id/retry', async (c) => {
    const signed = await signedInForm(c);
    if (signed instanceof Response) return signed;
    const { session, actor, siteId } = signed;
    return refusable(c, session, siteId, async () => {
      await enforceRateLimit(c, 'submit', session.accountId);
      await retrySite({ deps: c.get('deps'), actor, input: { site_id: siteId } });
      return c.redirect(pagePath(siteId), 303);
    });
  });

  // A new address for a failed crawl: the verb of PATCH /api/v1/sites/{site_id} with url, validated by the API's
  // own schema (submit's URL rules); the typed address and its error come back on the page when refused.
  app.post('/submissions/:id/url', async (c) => {
    const signed = await signedInForm(c);
    if (signed instanceof Response) return signed;
    const { session, form, actor, siteId } = signed;
    const typed: UrlFormState = { url: form.url ?? '' };
    return refusable(
      c,
      session,
      siteId,
      async () => {
        const parsed = editInputSchema.shape.url.safeParse(typed.url);
        if (!parsed.success || parsed.data === undefined) {
          typed.error = parsed.success
            ? 'Enter the new address.'
            : (parsed.error.issues[0]?.message ?? 'Enter the new address.');
          throw new ServiceError('invalid_request', 'The address was not changed: see the field marked below.');
        }
        await enforceRateLimit(c, 'submit', session.accountId);
        try {
          await editSite({ deps: c.get('deps'), actor, input: { url: parsed.data, site_id: siteId } });
        } catch (error) {
          if (isServiceError(error) && error.code === 'already_submitted') typed.error = error.message;
          throw error;
        }
        return c.redirect(pagePath(siteId), 303);
      },
      undefined,
      typed,
    );
  });

  // The MCP endpoint: the verb of PATCH /api/v1/sites/{site_id} with mcp_url (empty removes it), validated by the
  // API's own schema; the typed address and its error come back on the page when refused.
  app.post('/submissions/:id/mcp', async (c) => {
    const signed = await signedInForm(c);
    if (signed instanceof Response) return signed;
    const { session, form, actor, siteId } = signed;
    const typed: McpFormState = { mcpUrl: (form.mcp_url ?? '').slice(0, 4096) };
    return refusable(
      c,
      session,
      siteId,
      async () => {
        const parsed = editInputSchema.shape.mcp_url.safeParse(typed.mcpUrl.trim() === '' ? null : typed.mcpUrl);
        if (!parsed.success || parsed.data === undefined) {
          typed.error = parsed.success
            ? 'Enter the MCP endpoint, or leave it empty to remove it.'
            : (parsed.error.issues[0]?.message ?? 'Enter the MCP endpoint.').replace(/^mcp_url must be/, 'It must be');
          throw new ServiceError('invalid_request', 'The MCP endpoint was not changed: see the field marked below.');
        }
        await enforceRateLimit(c, 'submit', session.accountId);
        await editSite({ deps: c.get('deps'), actor, input: { mcp_url: parsed.data, site_id: siteId } });
        return c.redirect(`${pagePath(siteId)}#mcp`, 303);
      },
      undefined,
      undefined,
      typed,
    );
  });

  // Refresh from the site: the verb of POST /api/v1/sites/{site_id}/refresh. Once per rendering of the form, so a
  // double click files one edit (a second would supersede the first with the same text).
  app.post('/submissions/:id/refresh', async (c) => {
    const signed = await signedInForm(c);
    if (signed instanceof Response) return signed;
    const { session, form, actor, siteId } = signed;
    return refusable(c, session, siteId, async () => {
      await enforceRateLimit(c, 'submit', session.accountId);
      await runOnce(c, session.accountId, form, 'site_refresh', { site_id: siteId }, () =>
        refreshFromSite({ deps: c.get('deps'), actor, input: { site_id: siteId } }),
      );
      return c.redirect(`${pagePath(siteId)}#edit`, 303);
    });
  });

  // Suggest an edit: the verb of PATCH /api/v1/sites/{site_id}, validated by the API's own schema.
  app.post('/submissions/:id/edit', async (c) => {
    const signed = await signedInForm(c);
    if (signed instanceof Response) return signed;
    const { session, form, actor, siteId } = signed;
    const typed: EditFormState = { name: form.name ?? '', description: form.description ?? '', errors: {} };
    return refusable(
      c,
      session,
      siteId,
      async () => {
        const given = {
          ...(typed.name.trim() && { name: typed.name }),
          ...(typed.description.trim() && { description: typed.description }),
        };
        if (given.name === undefined && given.description === undefined) {
          throw new ServiceError('invalid_request', 'Nothing to file: give a new name, a new description, or both.');
        }
        const parsed = editInputSchema.safeParse(given);
        if (!parsed.success) {
          for (const issue of parsed.error.issues)
            typed.errors[issue.path[0] as 'name' | 'description'] ??= issue.message;
          throw new ServiceError('invalid_request', 'The edit was not filed: see the fields marked below.');
        }
        await enforceRateLimit(c, 'submit', session.accountId);
        try {
          await editSite({ deps: c.get('deps'), actor, input: { ...parsed.data, site_id: siteId } });
        } catch (error) {
          if (!isServiceError(error) || error.code !== 'already_submitted') throw error;
          typed.errors.name = 'Another tool already has this name.';
          throw new ServiceError('already_submitted', 'The edit was not filed: see the fields marked below.');
        }
        return c.redirect(`${pagePath(siteId)}#edit`, 303);
      },
      typed,
    );
  });
}
