// /account – the account area: sign-in, overview, one submission, API keys, connected apps, OAuth consent, membership,
// billing, webhooks, mail, sign-out (server-rendered, works without JS)
import { Hono, type Context } from 'hono';
import type { OpenAPIHono } from '@hono/zod-openapi';
import { html } from 'hono/html';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isServiceError, ServiceError } from '../../../src/errors';
import type { AppEnv } from '../../types';
import { renderPage } from './layout';
import * as signIn from './sign-in-page';
import * as overview from './overview-page';
import * as keys from './keys-page';
import * as signOut from './sign-out';
import * as consent from './consent-page';
import * as connectedApps from './connected-apps';
import * as submission from './submission-page';
import * as submissionActions from './submission-actions';
import * as withdrawPage from './withdraw-page';
import * as membership from './membership-page';
import * as billing from './billing-page';
import * as webhooks from './webhooks-page';
import * as domains from './domains-page';
import * as mail from './mail-page';
import * as healthMails from './health-mails';
import { formBodyLimit } from '../../middleware/body-limit';

/** Errors in the account area (and /submit) are pages, not JSON: same status and message, with a way back. */
export function errorPage(error: Error, c: Context<AppEnv>) {
  let known: ServiceError;
  if (isServiceError(error)) known = error;
  else {
    c.get('deps')?.log.error('account page failed', {
      requestId: c.get('requestId'),
      path: c.req.path,
      err: String(error),
    });
    known = new ServiceError('internal_error', 'Something went wrong on our side. Please retry later.');
  }
  if (known.details.retryAfterSeconds !== undefined) c.header('Retry-After', String(known.details.retryAfterSeconds));
  return renderPage(c, {
    title:
      known.status === 403 ? 'Request refused' : known.status === 429 ? 'Too many requests' : 'Something is not right',
    status: known.status as ContentfulStatusCode,
    body: html`<p class="error" role="alert">${known.message}</p><p><a href="/account">Back to your account</a></p>`,
  });
}

export function register(app: OpenAPIHono<AppEnv>) {
  const account = new Hono<AppEnv>();
  account.use('*', formBodyLimit);
  for (const page of [
    signIn,
    overview,
    keys,
    signOut,
    consent,
    connectedApps,
    submission,
    submissionActions,
    withdrawPage,
    membership,
    billing,
    webhooks,
    domains,
    mail,
    healthMails,
  ])
    page.register(account);
  account.onError(errorPage);
  app.route('/account', account);
}
