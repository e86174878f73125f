// An in-process CliContext for tests: captured output, a temp config dir, and a scripted fake API.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliContext, TextOut } from '../../../src/cli/context';

export interface FakeRequest {
  method: string;
  path: string;
  search: URLSearchParams;
  headers: Headers;
  body: unknown;
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type FakeApi = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

export class Captured implements TextOut {
  text = '';
  constructor(readonly isTTY = false) {}
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
}

export interface FakeWorld {
  ctx: CliContext;
  stdout: Captured;
  stderr: Captured;
  requests: FakeRequest[];
  opened: string[];
  sleeps: number[];
  home: string;
}

/** A context whose fetch only answers on http://127.0.0.1:8787 and fails the test for any other host. */
export async function fakeWorld(
  api: FakeApi,
  options: { env?: Record<string, string>; tty?: boolean } = {},
): Promise<FakeWorld> {
  const home = await mkdtemp(join(tmpdir(), 'tooldir-cli-'));
  const stdout = new Captured(options.tty);
  const stderr = new Captured(options.tty);
  const requests: FakeRequest[] = [];
  const opened: string[] = [];
  const sleeps: number[] = [];
  let clock = Date.parse('2026-11-21T22:00:00.000Z');
  const stdin = new PassThrough();
  stdin.end();
  const ctx: CliContext = {
    env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...options.env },
    stdout,
    stderr,
    stdin,
    fetch: async (input, init) => {
      const url = new URL(input);
      if (url.hostname !== '127.0.0.1') throw new Error(`test fetch refused a non-loopback host: ${url.hostname}`);
      const request: FakeRequest = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        search: url.searchParams,
        headers: new Headers(init?.headers),
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      };
      requests.push(request);
      const answer = await api(request);
      return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json', ...answer.headers },
      });
    },
    openUrl: async (url) => {
      opened.push(url);
    },
    sleep: async (ms) => {
      sleeps.push(ms);
      clock += ms;
    },
    now: () => new Date(clock),
    pollIntervalMs: 2_000,
    version: '9.9.9',
  };
  return { ctx, stdout, stderr, requests, opened, sleeps, home };
}

export const siteId = '0b6f9a52-3c1e-4d7a-9f7e-2a4b5c6d7e8f';

export function siteRecord(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    site_id: siteId,
    name: 'Acme AI',
    url: 'https://acme.example/',
    status,
    is_feature: false,
    is_sponsor: false,
    submitted_at: '2026-11-21 22:00:00+00',
    ...extra,
  };
}

export function pendingRecord(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    site_id: siteId,
    name: 'Acme AI',
    url: 'https://acme.example/',
    status: 'pending_payment',
    plan: 'basic',
    checkout_url: 'http://127.0.0.1:8787/checkout/cs_1',
    expires_at: '2026-11-22T22:00:00.000Z',
    submitted_at: '2026-11-21T22:00:00.000Z',
    reason: 'no_membership',
    ...extra,
  };
}
