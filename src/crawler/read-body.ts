// Reads a response body as a stream, counting decompressed bytes, and stops as soon as the cap is passed.
import { abortable } from './abortable';
import { describeFailure } from './crawl-failures';
import { crawlFailure, type CrawlFailure } from './crawl-result';

export type BodyResult = { ok: true; bytes: Uint8Array } | { ok: false; error: CrawlFailure };

/**
 * Collects at most `maxBytes` of the (already decompressed, as fetch delivers it) body.
 * A declared Content-Length above the cap fails before reading; a stream that grows past it is cancelled.
 */
export async function readBoundedBody(response: Response, maxBytes: number, signal: AbortSignal): Promise<BodyResult> {
  const declared = Number(response.headers.get('content-length'));
  // Content-Length counts encoded bytes, which never exceed what they inflate to: a safe early refusal.
  if (Number.isFinite(declared) && declared > maxBytes) {
    response.body?.cancel().catch(() => undefined);
    return crawlFailure('too_large', `the page declares ${declared} bytes (limit ${maxBytes})`, response.status);
  }
  if (!response.body) return { ok: true, bytes: new Uint8Array(0) };

  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => undefined);
        return crawlFailure('too_large', `the page is larger than ${maxBytes} bytes`, response.status);
      }
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    return { ok: false, error: describeFailure(error, signal) };
  }
  return { ok: true, bytes: concatenate(chunks, total) };
}

function concatenate(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
