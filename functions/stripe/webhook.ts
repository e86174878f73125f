// POST /api/webhooks/stripe – Stripe events: verify the raw body's signature, dispatch by event type
import type { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import Stripe from 'stripe';
import type { Deps } from '../../src/deps';
import { ServiceError } from '../../src/errors';
import { handleStripeEvent, type HandledEvent } from '../../src/payments/dispatch';
import type { StripeEventEnvelope } from '../../src/payments/stripe-event';
import { errorResponse } from '../errors';
import { clientIp } from '../middleware/client-ip';
import { enforceRateLimit } from '../middleware/rate-limit';
import type { AppEnv } from '../types';

export const STRIPE_WEBHOOK_PATH = '/api/webhooks/stripe';
/** Stripe's own default: a signature older than 5 minutes is a replay. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** Real events are a few KiB; anything near this is not from Stripe. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

// Web Crypto works in Workers and Node alike; created once per isolate.
let cryptoProvider: ReturnType<typeof Stripe.createSubtleCryptoProvider> | undefined;
const subtleCrypto = () => (cryptoProvider ??= Stripe.createSubtleCryptoProvider());

/** A missing, wrong or stale signature (400): the one refusal the `stripeRefusals` policy counts. */
class SignatureRefusal extends ServiceError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}
const badSignature = () => new SignatureRefusal('The Stripe-Signature header does not match this body.');

function envelope(event: unknown): StripeEventEnvelope {
  const e = event as Partial<StripeEventEnvelope>;
  const object = e.data?.object;
  if (
    typeof e.id !== 'string' ||
    typeof e.type !== 'string' ||
    typeof e.created !== 'number' ||
    !object ||
    typeof object !== 'object'
  ) {
    throw new ServiceError('invalid_request', 'The body is not a Stripe event.');
  }
  return { id: e.id, type: e.type, created: e.created, data: { object: object as Record<string, unknown> } };
}

/**
 * The one way an event enters the service, used by this route and by the local checkout page: verifies
 * `signature` over the exact raw body (constructEventAsync + SubtleCrypto, 300 s tolerance), then applies
 * the event. Throws invalid_request (400) on a missing, wrong or stale signature; nothing has changed then.
 */
export async function receiveStripeEvent(
  deps: Deps,
  rawBody: string,
  signature: string | undefined,
): Promise<HandledEvent> {
  const secret = deps.config.stripeWebhookSecret;
  if (!secret)
    throw new ServiceError('service_unavailable', 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).');
  if (!signature) throw new SignatureRefusal('The Stripe-Signature header is missing.');
  let verified: unknown;
  try {
    verified = await Stripe.webhooks.constructEventAsync(
      rawBody,
      signature,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      subtleCrypto(),
      deps.now().getTime(),
    );
  } catch {
    throw badSignature();
  }
  const event = envelope(verified);
  const result = await handleStripeEvent(deps, event);
  deps.log.info('stripe event', { summary: result.summary, handled: result.handled });
  return result;
}

export function register(app: OpenAPIHono<AppEnv>) {
  app.post(
    STRIPE_WEBHOOK_PATH,
    bodyLimit({
      maxSize: WEBHOOK_BODY_LIMIT,
      onError: (c) => errorResponse(c, new ServiceError('payload_too_large', 'The request body is larger than 1 MiB.')),
    }),
    async (c) => {
      // The raw text, never parsed first: the signature covers these exact bytes.
      const rawBody = await c.req.text();
      try {
        const handled = await receiveStripeEvent(c.get('deps'), rawBody, c.req.header('stripe-signature'));
        c.set('announceStatusChanges', handled.announce);
        return c.json({ received: true }, 200);
      } catch (error) {
        // Counted only once refused: over the limit, this refusal is a 429 (with Retry-After) instead of a 400.
        if (error instanceof SignatureRefusal) await enforceRateLimit(c, 'stripeRefusals', clientIp(c));
        throw error;
      }
    },
  );
}
