// Small node:http helpers shared by the stand-ins: read the body, read a header, answer JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Collects the request body as UTF-8 text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The first value of a request header (node lowercases names). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/** Answers with a JSON body (extra headers optional). */
export function sendJson(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...extra }).end(JSON.stringify(body));
}
