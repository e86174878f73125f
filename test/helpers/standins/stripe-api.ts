// A local stand-in for the Stripe endpoints tooldir calls, recording every request, with idempotent replay and faults.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';
import { header, readBody, sendJson } from './http-io';
import { type FormValue, parseStripeForm } from './stripe-form';
import {
  billingPortalSession,
  checkoutSession,
  DEFAULT_PRICES,
  lineItemsTotal,
  refund,
  stripeError,
  stripeId,
  taxParamsRefusal,
  type StandInPrice,
} from './stripe-objects';

/** One request as the stand-in received it. */
export interface StripeRequest {
  method: string;
  path: string;
  /** The form body parsed into a nested object (`metadata[a]=b` → { metadata: { a: 'b' } }). */
  body: { [key: string]: FormValue };
  idempotencyKey?: string;
  authorization?: string;
  stripeVersion?: string;
}

/** `'error'` answers 500 api_error; `'destroy'` drops the socket without a response. */
export type StripeDownMode = false | 'error' | 'destroy';

/** A running Stripe stand-in; use with `new Stripe(key, { host: '127.0.0.1', port, protocol: 'http' })`. */
export interface StripeStandIn {
  url: string;
  port: number;
  /** Options to spread into the Stripe constructor (host, port, protocol, no retries). */
  clientOptions: { host: string; port: number; protocol: 'http'; maxNetworkRetries: number };
  readonly requests: readonly StripeRequest[];
  clearRequests(): void;
  /** Stored Checkout Sessions by id (mutable: tests may mark one complete before sending an event). */
  readonly sessions: Map<string, Record<string, unknown>>;
  /**
   * Marks a session paid and complete (as after Checkout), returning it for `buildStripeEvent`. `tax`: what Stripe
   * Tax computed from the buyer's address (only on a session with automatic_tax; added to amount_total, as for a
   * tax-exclusive Price).
   */
  completeSession(
    id: string,
    fields?: { paymentIntent?: string; subscription?: string; customer?: string; tax?: number },
  ): Record<string, unknown>;
  /** Customer Portal sessions created, in order. */
  readonly portalSessions: readonly Record<string, unknown>[];
  /** Ids of subscriptions cancelled through `DELETE /v1/subscriptions/{id}`. */
  readonly cancelledSubscriptions: readonly string[];
  /** Answers `GET /v1/subscriptions/{id}` with this object (merged over a minimal subscription). */
  setSubscription(subscription: { id: string } & Record<string, unknown>): void;
  setLatency(ms: number): void;
  setDown(mode: StripeDownMode | true): void;
  close(): Promise<void>;
}

interface Stored {
  status: number;
  body: unknown;
  fingerprint: string;
}

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  sendJson(res, status, body, { 'request-id': `req_${Date.now()}`, ...extra });
}

/**
 * Starts the stand-in on a free loopback port. `prices`: Price ids it knows besides DEFAULT_PRICES (a session on
 * an unknown Price fails with resource_missing, as on Stripe).
 */
export async function startStripeStandIn(
  options: { prices?: Record<string, StandInPrice> } = {},
): Promise<StripeStandIn> {
  const prices = { ...DEFAULT_PRICES, ...options.prices };
  const requests: StripeRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const subscriptions = new Map<string, Record<string, unknown>>();
  const portalSessions: Record<string, unknown>[] = [];
  const cancelledSubscriptions: string[] = [];
  const idempotent = new Map<string, Stored>();
  let latency = 0;
  let down: StripeDownMode = false;
  let baseUrl = '';

  function route(method: string, path: string, body: StripeRequest['body']): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const total = lineItemsTotal(body.line_items, prices);
      if (total && 'unknownPrice' in total) {
        const message = `No such price: '${total.unknownPrice}'`;
        return {
          status: 400,
          body: stripeError('invalid_request_error', message, {
            code: 'resource_missing',
            param: 'line_items[0][price]',
          }),
        };
      }
      const refused = taxParamsRefusal(body);
      if (refused)
        return { status: 400, body: stripeError('invalid_request_error', refused.message, { param: refused.param }) };
      const session = checkoutSession(body, baseUrl, total);
      sessions.set(String(session.id), session);
      return { status: 200, body: session };
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      if (typeof body.customer !== 'string' || !body.customer) {
        return {
          status: 400,
          body: stripeError('invalid_request_error', 'Missing required param: customer.', {
            code: 'parameter_missing',
            param: 'customer',
          }),
        };
      }
      const portal = billingPortalSession(body, baseUrl);
      portalSessions.push(portal);
      return { status: 200, body: portal };
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)(\/expire)?$/.exec(path);
    if (sessionMatch?.[1]) {
      const session = sessions.get(sessionMatch[1]);
      if (!session) {
        const message = `No such checkout.session: '${sessionMatch[1]}'`;
        return {
          status: 404,
          body: stripeError('invalid_request_error', message, { code: 'resource_missing', param: 'session' }),
        };
      }
      if (method === 'GET' && !sessionMatch[2]) return { status: 200, body: session };
      if (method === 'POST' && sessionMatch[2]) {
        if (session.status !== 'open') {
          const message = `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`;
          return { status: 400, body: stripeError('invalid_request_error', message) };
        }
        session.status = 'expired';
        return { status: 200, body: session };
      }
    }
    if (method === 'POST' && path === '/v1/refunds') {
      if (!body.payment_intent && !body.charge) {
        return {
          status: 400,
          body: stripeError(
            'invalid_request_error',
            'One of the following params should be provided for this request: payment_intent or charge.',
            { code: 'parameter_missing' },
          ),
        };
      }
      return { status: 200, body: refund(body) };
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && subscriptionMatch?.[1]) {
      const id = subscriptionMatch[1];
      if (cancelledSubscriptions.includes(id)) {
        return {
          status: 400,
          body: stripeError('invalid_request_error', `The subscription ${id} has already been canceled.`),
        };
      }
      cancelledSubscriptions.push(id);
      return {
        status: 200,
        body: {
          ...(subscriptions.get(id) ?? { id, object: 'subscription', metadata: {} }),
          status: 'canceled',
          canceled_at: Math.floor(Date.now() / 1000),
        },
      };
    }
    if (method === 'GET' && subscriptionMatch?.[1]) {
      const subscription = subscriptions.get(subscriptionMatch[1]);
      if (subscription) return { status: 200, body: subscription };
      const message = `No such subscription: '${subscriptionMatch[1]}'`;
      return {
        status: 404,
        body: stripeError('invalid_request_error', message, { code: 'resource_missing', param: 'id' }),
      };
    }
    return {
      status: 404,
      body: stripeError('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`),
    };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const url = new URL(req.url ?? '/', baseUrl);
    const method = req.method ?? 'GET';
    const body = parseStripeForm(method === 'GET' || method === 'DELETE' ? url.search.slice(1) || text : text);
    const idempotencyKey = header(req, 'idempotency-key');
    requests.push({
      method,
      path: url.pathname,
      body,
      idempotencyKey,
      authorization: header(req, 'authorization'),
      stripeVersion: header(req, 'stripe-version'),
    });
    if (latency > 0) await new Promise((r) => setTimeout(r, latency));
    if (down === 'destroy') return void req.socket.destroy();
    if (down === 'error') return send(res, 500, stripeError('api_error', 'The Stripe stand-in is down.'));
    if (!header(req, 'authorization')?.startsWith('Bearer sk_')) {
      return send(res, 401, stripeError('invalid_request_error', 'Invalid API Key provided.'));
    }
    const fingerprint = `${method} ${url.pathname} ${text}`;
    const previous = idempotencyKey && method === 'POST' ? idempotent.get(idempotencyKey) : undefined;
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        const message = `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`;
        return send(res, 400, stripeError('idempotency_error', message));
      }
      return send(res, previous.status, previous.body, { 'idempotent-replayed': 'true' });
    }
    const answer = route(method, url.pathname, body);
    if (idempotencyKey && method === 'POST') idempotent.set(idempotencyKey, { ...answer, fingerprint });
    send(res, answer.status, answer.body);
  }

  const listening = await listenOnLoopback(
    createServer(
      (req, res) =>
        void handle(req, res).catch((error: unknown) => send(res, 500, stripeError('api_error', String(error)))),
    ),
  );
  baseUrl = listening.url;
  return {
    url: listening.url,
    port: listening.port,
    clientOptions: { host: '127.0.0.1', port: listening.port, protocol: 'http', maxNetworkRetries: 0 },
    requests,
    clearRequests() {
      requests.length = 0;
    },
    sessions,
    portalSessions,
    cancelledSubscriptions,
    completeSession(id, fields = {}) {
      const session = sessions.get(id);
      if (!session) throw new Error(`no checkout session ${id}`);
      const subscriptionMode = session.mode === 'subscription';
      const automaticTax = (session.automatic_tax as { enabled?: boolean } | undefined)?.enabled === true;
      const tax = automaticTax ? (fields.tax ?? 0) : 0;
      Object.assign(session, {
        status: 'complete',
        payment_status: 'paid',
        payment_intent: subscriptionMode ? null : (fields.paymentIntent ?? stripeId('pi')),
        subscription: subscriptionMode ? (fields.subscription ?? stripeId('sub')) : null,
        customer: fields.customer ?? session.customer ?? stripeId('cus'),
        amount_total: Number(session.amount_total ?? 0) + tax,
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: tax },
        ...(automaticTax && { automatic_tax: { ...(session.automatic_tax as object), status: 'complete' } }),
      });
      return { ...session };
    },
    setSubscription(subscription) {
      subscriptions.set(subscription.id, {
        object: 'subscription',
        status: 'active',
        metadata: {},
        items: { object: 'list', data: [] },
        ...subscription,
      });
    },
    setLatency(ms) {
      latency = ms;
    },
    setDown(mode) {
      down = mode === true ? 'error' : mode;
    },
    close: () => listening.close(),
  };
}
