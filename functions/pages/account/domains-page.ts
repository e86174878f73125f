// GET/POST /account/domains, POST /account/domains/:domain/verify and /remove, POST /account/claim – the account's
// domains and claims through the same verbs as /api/v1/domains and /api/v1/claims (docs/ownership.md)
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { actorForWebSession } from '../../../src/accounts/actor';
import type { WebSession } from '../../../src/accounts/web-sessions';
import { isServiceError, type ServiceError } from '../../../src/errors';
import { addDomain, listDomains, removeDomain } from '../../../src/domains/domains';
import { verifyDomain } from '../../../src/domains/verify-domain';
import { verifyDomainInputSchema } from '../../../src/domains/domain-input';
import { claimSite } from '../../../src/claims/claim-site';
import { claimInputSchema } from '../../../src/claims/claim-input';
import { enforceRateLimit } from '../../middleware/rate-limit';
import type { AppEnv } from '../../types';
import { COPY_SCRIPT } from '../shell/copy-button';
import { checkSessionCsrf } from './csrf';
import { renderPage } from './layout';
import { readForm, sessionOrRedirect } from './session';
import { runOnce } from './form-once';
import { DOMAINS_PAGE, domainsBody, type FieldError } from './domains-views';

/** Fixed outcome notices: the redirect carries a code, never text, so nothing is reflected into the page. */
const NOTICES = {
  added: 'Domain added: prove it by one of the three ways below.',
  verified: 'Verified: your listings on this domain show the mark.',
  code_sent: 'A code is on its way to that address: type it below.',
  removed: 'Domain removed.',
} as const;

/** The errors a form shows next to its field; anything else (403, 429, 5xx) is the account area's error page. */
const FIELD_ERRORS = new Set([
  'invalid_request',
  'verification_failed',
  'not_found',
  'conflict',
  'domain_not_verified',
  'claim_disputed',
]);

async function domainsPage(
  c: Context<AppEnv>,
  session: WebSession,
  error?: FieldError,
  status: ContentfulStatusCode = 200,
) {
  const deps = c.get('deps');
  const { domains } = await listDomains({ deps, actor: actorForWebSession(session), input: {} });
  const code = c.req.query('notice');
  return renderPage(c, {
    title: 'Domains',
    status,
    signedIn: { email: session.email, csrfToken: session.csrfToken },
    script: COPY_SCRIPT,
    body: domainsBody(domains, session.csrfToken, {
      local: deps.config.crawl.allowPrivate,
      notice: !error && code && code in NOTICES ? NOTICES[code as keyof typeof NOTICES] : undefined,
      error,
    }),
  });
}

/** A verb's refusal as the form's error, or rethrown for the error page. */
function asFieldError(
  error: unknown,
  form: string,
  field: string,
  value: string,
): { error: FieldError; status: ContentfulStatusCode } {
  if (!isServiceError(error) || !FIELD_ERRORS.has(error.code)) throw error;
  const known = error as ServiceError;
  const named = typeof known.details.field === 'string' && form.startsWith('verify:') ? known.details.field : field;
  return {
    error: { form, field: known.code === 'verification_failed' ? field : named, value, message: known.message },
    status: known.status as ContentfulStatusCode,
  };
}

const anchor = (domain: string) => `#domain-${domain.replace(/[^a-z0-9-]/g, '-')}`;

export function register(app: Hono<AppEnv>) {
  app.get('/domains', async (c) => {
    const session = await sessionOrRedirect(c, DOMAINS_PAGE);
    if (session instanceof Response) return session;
    return domainsPage(c, session);
  });

  app.post('/domains', async (c) => {
    const session = await sessionOrRedirect(c, DOMAINS_PAGE);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    await enforceRateLimit(c, 'domainChanges', session.accountId);
    const domain = (form.domain ?? '').trim().slice(0, 301);
    try {
      const { record } = await runOnce(c, session.accountId, form, 'domain_add', { domain }, () =>
        addDomain({ deps: c.get('deps'), actor: actorForWebSession(session), input: { domain } }),
      );
      return c.redirect(`${DOMAINS_PAGE}?notice=added${anchor(record.domain)}`, 303);
    } catch (error) {
      const shown = asFieldError(error, 'add', 'domain', domain);
      return domainsPage(c, session, shown.error, shown.status);
    }
  });

  app.post('/domains/:domain/verify', async (c) => {
    const session = await sessionOrRedirect(c, DOMAINS_PAGE);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    await enforceRateLimit(c, 'domainVerify', session.accountId);
    const domain = c.req.param('domain');
    const formName = `verify:${domain}`;
    const field =
      form.method === 'email'
        ? form.code !== undefined
          ? 'code'
          : 'email'
        : form.method === 'http' && form.port
          ? 'port'
          : 'method';
    const value = (form[field] ?? '').slice(0, 300);
    const parsed = verifyDomainInputSchema.safeParse({
      method: form.method,
      ...(form.email !== undefined && { email: form.email.trim() }),
      ...(form.code !== undefined && { code: form.code.trim() }),
      ...(form.port && { port: Number(form.port) }),
    });
    if (!parsed.success) {
      const message = parsed.error.issues.map((i) => i.message).join('; ');
      return domainsPage(c, session, { form: formName, field, value, message }, 400);
    }
    try {
      const { emailSent } = await verifyDomain({
        deps: c.get('deps'),
        actor: actorForWebSession(session),
        input: { ...parsed.data, domain },
      });
      return c.redirect(`${DOMAINS_PAGE}?notice=${emailSent ? 'code_sent' : 'verified'}${anchor(domain)}`, 303);
    } catch (error) {
      const shown = asFieldError(error, formName, field, value);
      return domainsPage(c, session, shown.error, shown.status);
    }
  });

  app.post('/domains/:domain/remove', async (c) => {
    const session = await sessionOrRedirect(c, DOMAINS_PAGE);
    if (session instanceof Response) return session;
    await checkSessionCsrf(c, await readForm(c), session.csrfToken);
    await enforceRateLimit(c, 'domainChanges', session.accountId);
    try {
      await removeDomain({
        deps: c.get('deps'),
        actor: actorForWebSession(session),
        input: { domain: c.req.param('domain') },
      });
    } catch (error) {
      // Gone is what Remove asked for: a double click's second POST lands on the list, not an error page.
      if (!isServiceError(error) || (error.code !== 'not_found' && error.code !== 'invalid_request')) throw error;
    }
    return c.redirect(`${DOMAINS_PAGE}?notice=removed`, 303);
  });

  app.post('/claim', async (c) => {
    const session = await sessionOrRedirect(c, DOMAINS_PAGE);
    if (session instanceof Response) return session;
    const form = await readForm(c);
    await checkSessionCsrf(c, form, session.csrfToken);
    await enforceRateLimit(c, 'domainChanges', session.accountId);
    const url = (form.url ?? '').trim().slice(0, 2049);
    const parsed = claimInputSchema.safeParse({ url });
    if (!parsed.success)
      return domainsPage(
        c,
        session,
        { form: 'claim', field: 'url', value: url, message: parsed.error.issues[0]?.message ?? 'Not a URL.' },
        400,
      );
    try {
      const record = await claimSite({ deps: c.get('deps'), actor: actorForWebSession(session), input: parsed.data });
      return c.redirect(`/account/submissions/${record.site_id}`, 303);
    } catch (error) {
      const shown = asFieldError(error, 'claim', 'url', url);
      return domainsPage(c, session, shown.error, shown.status);
    }
  });
}
