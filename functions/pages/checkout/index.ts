// GET/POST /checkout/... – the local checkout (no Stripe configured) and the success/cancel pages Stripe returns to
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { findCheckoutSession, isPayable } from '../../../src/payments/checkout-lookup';
import { enforceRateLimit } from '../../middleware/rate-limit';
import { clientIp } from '../../middleware/client-ip';
import { receiveStripeEvent } from '../../stripe/webhook';
import type { AppEnv } from '../../types';
import { isSameOrigin, checkoutFormToken, isValidFormToken } from './form-token';
import { localCompletedEvent, signLikeStripe } from './local-stripe-events';
import { findMembershipCheckout } from '../../../src/payments/membership-checkout-lookup';
import { membershipCheckoutPage, payMembership } from './membership-checkout';
import * as view from './views';
import { renderDocument } from '../shell/document';
import { readSessionCookie } from '../account/cookies';
import { html } from 'hono/html';
import { isUuid } from '../../../src/ids';
import { CSRF_FIELD } from '../../middleware/csrf';
import { moneyRulesPanel } from '../money-rules';
import { usualReviewTime } from '../../../src/submissions/review-time';

const SESSION_ID = /^cs_[A-Za-z0-9_]{1,200}$/;

/** Checkout pages: the site's shell, never cached or indexed; each view brings its own heading. */
function page(c: Context<AppEnv>, title: string, body: view.View, status: ContentfulStatusCode = 200) {
  c.header('Cache-Control', 'no-store');
  return renderDocument(c, {
    title: `${title} – tooldir`,
    head: html`<meta name="robots" content="noindex">`,
    main: body,
    status,
    signedIn: readSessionCookie(c) !== undefined,
    narrow: true,
  });
}

/** 410: a checkout whose record can no longer be paid (expired, or superseded by the maker's own listing). */
const closedPage = (c: Context<AppEnv>, found: Parameters<typeof view.closedCheckoutView>[0]) => {
  const closed = view.closedCheckoutView(found);
  return page(c, closed.title, closed.body, 410);
};
const unknown = (c: Context<AppEnv>) => page(c, 'Unknown checkout', view.unknownView(), 404);
/**
 * The local checkout exists only when no payment provider is configured (in Stripe mode Stripe hosts it), and
 * only with a webhook secret to sign its events with.
 */
const isLocal = (c: Context<AppEnv>) =>
  c.get('deps').payments.kind === 'local' && Boolean(c.get('deps').config.stripeWebhookSecret);

export function register(app: OpenAPIHono<AppEnv>) {
  // Static paths first: they would otherwise match /checkout/:session_id.
  app.get('/checkout/success', async (c) => {
    const sessionId = c.req.query('session_id') ?? '';
    const found = SESSION_ID.test(sessionId) ? await findCheckoutSession(c.get('deps'), sessionId) : undefined;
    if (!found) return unknown(c);
    return page(c, 'Payment', view.successView(found));
  });

  app.get('/checkout/cancelled', (c) => {
    const siteId = c.req.query('site_id') ?? '';
    return page(c, 'Payment cancelled', view.cancelledView(isUuid(siteId) ? siteId : undefined));
  });

  app.get('/checkout/membership', (c) => page(c, 'Membership', view.membershipView()));

  app.get('/checkout/:session_id', async (c) => {
    const sessionId = c.req.param('session_id');
    if (!isLocal(c) || !SESSION_ID.test(sessionId)) return unknown(c);
    const deps = c.get('deps');
    const found = await findCheckoutSession(deps, sessionId);
    if (!found) {
      const membership = await findMembershipCheckout(deps, sessionId);
      return membership ? membershipCheckoutPage(c, page, membership, sessionId) : unknown(c);
    }
    if (found.kind === 'site') return c.redirect(`/checkout/success?session_id=${encodeURIComponent(sessionId)}`, 303);
    if (!isPayable(found, deps.now())) return closedPage(c, found);
    const token = await checkoutFormToken(deps.config.stripeWebhookSecret ?? '', sessionId);
    const reviewTime = await usualReviewTime({ deps });
    return page(
      c,
      'Checkout',
      view.checkoutView(found, sessionId, token, moneyRulesPanel(deps.config.refundOnRejection, reviewTime)),
    );
  });

  // The form carries one token: anything bigger than a few KiB is not from our page.
  const formLimit = bodyLimit({
    maxSize: 4096,
    onError: (c) => page(c as Context<AppEnv>, 'Request refused', view.forbiddenView(), 413),
  });

  app.post('/checkout/:session_id/pay', formLimit, async (c) => {
    const sessionId = c.req.param('session_id');
    if (!isLocal(c) || !SESSION_ID.test(sessionId)) return unknown(c);
    const deps = c.get('deps');
    const secret = deps.config.stripeWebhookSecret ?? '';
    await enforceRateLimit(c, 'public', clientIp(c));
    const form = await c.req.parseBody();
    if (!(await isSameOrigin(c)) || !(await isValidFormToken(secret, sessionId, form[CSRF_FIELD]))) {
      return page(c, 'Request refused', view.forbiddenView(), 403);
    }
    const found = await findCheckoutSession(deps, sessionId);
    if (!found) {
      const membership = await findMembershipCheckout(deps, sessionId);
      return membership ? payMembership(c, page, membership, sessionId) : unknown(c);
    }
    if (found.kind === 'pending') {
      if (!isPayable(found, deps.now())) return closedPage(c, found);
      const now = deps.now();
      const payload = localCompletedEvent(found, sessionId, now, deps.origin);
      try {
        // The same entry Stripe's deliveries use: signature verification included.
        const handled = await receiveStripeEvent(deps, payload, await signLikeStripe(payload, secret, now));
        c.set('announceStatusChanges', handled.announce);
      } catch (error) {
        deps.log.error('local checkout could not deliver its event', { err: String(error) });
        return page(c, 'Payment failed', view.failedView(), 502);
      }
    }
    return c.redirect(`/checkout/success?session_id=${encodeURIComponent(sessionId)}`, 303);
  });
}
