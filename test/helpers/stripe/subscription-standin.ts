// A minimal stand-in for the Stripe endpoints cancelSubscriptionAndRefund calls (the shared stand-in lacks them).
import { createServer } from 'node:http';
import { listenOnLoopback } from '../standins/listen';
import { header, readBody } from '../standins/http-io';
import { parseStripeForm, type FormValue } from '../standins/stripe-form';

export interface RecordedRequest {
  method: string;
  path: string;
  query: string;
  body: { [key: string]: FormValue };
  idempotencyKey?: string;
}

/** DELETE /v1/subscriptions/{id}, GET /v1/invoice_payments?invoice=..., POST /v1/refunds, on 127.0.0.1. */
export async function startSubscriptionStandIn(paymentIntentByInvoice: Record<string, string>) {
  const requests: RecordedRequest[] = [];
  const cancelled = new Set<string>();
  const server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.search,
        body: parseStripeForm(text),
        idempotencyKey: header(req, 'idempotency-key'),
      });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'DELETE' && sub?.[1]) {
        if (cancelled.has(sub[1]))
          return send(400, { error: { type: 'invalid_request_error', message: 'already canceled' } });
        cancelled.add(sub[1]);
        return send(200, { id: sub[1], object: 'subscription', status: 'canceled' });
      }
      if (req.method === 'GET' && url.pathname === '/v1/invoice_payments') {
        const intent = paymentIntentByInvoice[url.searchParams.get('invoice') ?? ''];
        const data = intent
          ? [
              {
                id: 'inpay_1',
                object: 'invoice_payment',
                status: 'paid',
                payment: { type: 'payment_intent', payment_intent: intent },
              },
            ]
          : [];
        return send(200, { object: 'list', data, has_more: false, url: '/v1/invoice_payments' });
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds')
        return send(200, { id: 're_1', object: 'refund', status: 'succeeded' });
      send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname}).` },
      });
    });
  });
  const listening = await listenOnLoopback(server);
  return { ...listening, requests };
}
