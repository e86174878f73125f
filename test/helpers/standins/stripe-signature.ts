// Signs webhook payloads like Stripe (Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.payload">).
import { createHmac, randomBytes } from 'node:crypto';

function v1(payload: string, secret: string, timestamp: number): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
}

/**
 * The `Stripe-Signature` header for `payload` (the exact raw body) signed with `secret` (whsec_...).
 * @example
 * const res = await app.request('/api/webhooks/stripe', { method: 'POST', body, headers: { 'stripe-signature': signStripeEvent(body, secret) } });
 */
export function signStripeEvent(payload: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${v1(payload, secret, timestamp)}`;
}

/** A header carrying one v1 signature per secret, as Stripe sends while an endpoint secret is being rolled. */
export function signStripeEventWithSecrets(
  payload: string,
  secrets: readonly string[],
  timestamp = Math.floor(Date.now() / 1000),
): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${v1(payload, secret, timestamp)}`)].join(',');
}

/** A webhook event envelope (snapshot event) around `object`, serialised exactly once so it can be signed. */
export function buildStripeEvent(
  type: string,
  object: Record<string, unknown>,
  options: { id?: string; created?: number } = {},
): string {
  return JSON.stringify({
    id: options.id ?? `evt_test_${randomBytes(12).toString('hex')}`,
    object: 'event',
    api_version: '2026-10-28.endive', // stripe-node 23's pinned API version
    created: options.created ?? Math.floor(Date.now() / 1000),
    type,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object },
  });
}
