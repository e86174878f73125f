// A second loopback server for CLI e2e tests: it answers what each test scripts and records every request it
// receives (method, path, headers, body), so a test can prove what the CLI sent, or that it sent nothing.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface RecordingServer {
  url: string;
  received: RecordedRequest[];
  /** Replaces the answer for every following request. */
  answer(script: (request: RecordedRequest) => ScriptedAnswer): void;
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const received: RecordedRequest[] = [];
  let script: (request: RecordedRequest) => ScriptedAnswer = () => ({
    status: 404,
    body: { error: { code: 'not_found', message: 'Not scripted' } },
  });
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      };
      received.push(request);
      const answer = script(request);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      script = next;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
