// Reading what an MCP server answers, within bounds: bytes counted per answer and for the whole probe, every read
// under the probe's deadline. A bound that is passed, or an answer that is no MCP, stops the probe as a value
// (McpProbeStop) that the probe records; nothing here throws anything else for what a server sends.
import type { McpReasonKind } from '../catalog/mcp-states';
import { abortable } from './abortable';
import { describeFailure } from './crawl-failures';
import type { CrawlFailure } from './crawl-result';
import { SseParser, type SseEvent } from './mcp-sse';

/** Ends a probe early with a reason; the probe turns it into its result. */
export class McpProbeStop extends Error {
  override readonly name = 'McpProbeStop';
  constructor(
    readonly reasonKind: McpReasonKind,
    readonly detail: string,
    readonly httpStatus: number | null = null,
  ) {
    super(detail);
  }
}

/** The crawler's failure kinds as the probe's reasons (a refused port is a refused address to an owner). */
export function stopForFailure(failure: CrawlFailure): McpProbeStop {
  const reason: Record<string, McpReasonKind> = {
    blocked_address: 'blocked_address',
    blocked_port: 'blocked_address',
    dns_error: 'dns_error',
    timeout: 'timeout',
    too_large: 'too_large',
    http_error: 'http_error',
    too_many_redirects: 'http_error',
  };
  return new McpProbeStop(reason[failure.kind] ?? 'connection_error', failure.detail, failure.status ?? null);
}

/** The probe's byte budget: what all answers together may still use. */
export class ByteBudget {
  private used = 0;
  constructor(
    readonly perAnswer: number,
    readonly total: number,
  ) {}

  /** Counts `bytes` of an answer that has used `answerBytes` so far (these included); stops past either bound. */
  spend(bytes: number, answerBytes: number): void {
    this.used += bytes;
    if (answerBytes > this.perAnswer) throw new McpProbeStop('too_large', 'answer too large');
    if (this.used > this.total) throw new McpProbeStop('too_large', 'answers too large');
  }
}

/** A response body read in pieces under the budget and the deadline. */
export class BoundedReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  private readonly decoder = new TextDecoder();
  private answerBytes = 0;

  constructor(
    response: Response,
    private readonly budget: ByteBudget,
    private readonly signal: AbortSignal,
  ) {
    this.reader = response.body?.getReader();
  }

  /** Starts counting a new answer (the legacy transport reads many answers from one stream). */
  nextAnswer(): void {
    this.answerBytes = 0;
  }

  /** The next piece of text, or null at the end of the body. */
  async read(): Promise<string | null> {
    if (!this.reader) return null;
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await abortable(this.reader.read(), this.signal);
    } catch (error) {
      throw stopForFailure(describeFailure(error, this.signal));
    }
    if (chunk.done) return null;
    this.answerBytes += chunk.value.byteLength;
    this.budget.spend(chunk.value.byteLength, this.answerBytes);
    return this.decoder.decode(chunk.value, { stream: true });
  }

  /** The rest of the body as text. */
  async text(): Promise<string> {
    let text = '';
    for (let piece = await this.read(); piece !== null; piece = await this.read()) text += piece;
    return text;
  }

  cancel(): void {
    this.reader?.cancel().catch(() => undefined);
  }
}

/** A stream of server-sent events over a bounded reader. */
export class EventStream {
  private readonly parser = new SseParser();
  private queued: SseEvent[] = [];

  constructor(readonly body: BoundedReader) {}

  /** The next event; stops as `not_mcp` when the stream ends first (`what` names what was awaited). */
  async next(what: string): Promise<SseEvent> {
    for (;;) {
      const event = this.queued.shift();
      if (event) return event;
      const text = await this.body.read();
      if (text === null) throw new McpProbeStop('protocol_error', `stream ended before ${what}`);
      this.queued = this.parser.push(text);
    }
  }
}

export type JsonRpcAnswer = { id: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };

/** The answer to request `id` among parsed JSON-RPC messages (one message or a batch); undefined when absent. */
export function answerTo(id: number, message: unknown): JsonRpcAnswer | undefined {
  const messages = Array.isArray(message) ? message : [message];
  for (const candidate of messages) {
    if (candidate && typeof candidate === 'object' && (candidate as { id?: unknown }).id === id) {
      const answer = candidate as JsonRpcAnswer;
      if ('result' in answer || 'error' in answer) return answer;
    }
  }
  return undefined;
}

/** The result of an answer, or a stop naming the server's error. */
export function resultOf(answer: JsonRpcAnswer, method: string): Record<string, unknown> {
  if (answer.error !== undefined) {
    const message = typeof answer.error?.message === 'string' ? answer.error.message.slice(0, 200) : 'no message';
    throw new McpProbeStop('protocol_error', `${method} answered a JSON-RPC error: ${message}`);
  }
  if (!answer.result || typeof answer.result !== 'object' || Array.isArray(answer.result))
    throw new McpProbeStop('protocol_error', `${method}: no result object`);
  return answer.result as Record<string, unknown>;
}

/** JSON.parse that stops as `reason` instead of throwing. */
export function parseJson(text: string, reason: McpReasonKind, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new McpProbeStop(reason, `${what}: not JSON`);
  }
}
