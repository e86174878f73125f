import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { errorResponse } from '../errors';
import { z } from 'zod';
import { invalidInput, ServiceError } from '../../src/errors';
import type { JobStep } from '../../src/adapters/queue/types';
import { runJob } from '../../src/jobs/run-job';
import { markDeliveryFailed } from '../../src/webhooks/deliver-webhook';
import type { AppEnv } from '../types';
import { BODY_LIMIT_BYTES, BODY_LIMIT_TEXT } from '../../src/body-limit';

const siteMessage = z.object({ site_id: z.uuid({ error: 'site_id must be a UUID' }) });
const webhookMessage = z.object({ delivery_id: z.uuid({ error: 'delivery_id must be a UUID' }) });
const sweepMessage = z.object({}).passthrough();

/** QStash's failure callback body: the original message travels base64-encoded in sourceBody. */
const failureCallback = z.object({ sourceBody: z.string().optional(), status: z.number().optional() }).passthrough();

function parseJson(text: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ServiceError('invalid_json', 'The job body is not valid JSON.');
  }
}

/**
 * One handler for every step, behind requireJobSignature: parse the verified body (ids only), run the step.
 * A thrown step error answers non-2xx so QStash retries; a duplicate delivery is a 2xx no-op.
 */
export function jobHandler(step: JobStep) {
  return async (c: Context<AppEnv>) => {
    const deps = c.get('deps');
    const body = parseJson(await c.req.text());
    if (c.req.query('failure') !== undefined) {
      // Retries are spent: the sweep re-dispatches or the crawl already ended in crawl_failed. Log for operators.
      const callback = failureCallback.safeParse(body);
      const source = callback.success && callback.data.sourceBody ? safeDecode(callback.data.sourceBody) : undefined;
      deps.log.error('job delivery failed for good', {
        step,
        source,
        status: callback.success ? callback.data.status : undefined,
      });
      if (step === 'webhook') return c.json({ ok: true, outcome: await webhookFailed(deps, source) });
      return c.json({ ok: true, outcome: 'failure_logged' });
    }
    const parsed = (step === 'sweep' ? sweepMessage : step === 'webhook' ? webhookMessage : siteMessage).safeParse(
      body,
    );
    if (!parsed.success) throw invalidInput(parsed.error, 'Invalid job body.');
    const result = await runJob(deps, step, parsed.data);
    return c.json({ ok: true, ...result });
  };
}

/** A webhook delivery whose QStash retries are spent is failed for good (its deliveries list says so). */
async function webhookFailed(
  deps: Parameters<typeof markDeliveryFailed>[0],
  source: string | undefined,
): Promise<string> {
  const parsed = webhookMessage.safeParse(source === undefined ? undefined : parseJsonOrUndefined(source));
  if (!parsed.success) return 'failure_logged';
  await markDeliveryFailed(deps, parsed.data.delivery_id);
  return 'delivery_failed';
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function safeDecode(base64: string): string | undefined {
  try {
    return atob(base64).slice(0, 500);
  } catch {
    return undefined;
  }
}

/** Job bodies carry ids only: anything over the body limit is refused before it is read for verification. */
export const jobBodyLimit = bodyLimit({
  maxSize: BODY_LIMIT_BYTES,
  onError: (c) =>
    errorResponse(c, new ServiceError('payload_too_large', `The job body is larger than ${BODY_LIMIT_TEXT}.`)),
});
