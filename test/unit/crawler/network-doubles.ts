// Test doubles that keep crawler tests off the network even when the code under test is broken.
import type { Resolver } from '../../../src/adapters/resolver/resolver';

/** A public documentation-style address used for names that must look public; never contacted. */
export const PUBLIC_IPV4 = '93.184.216.34';

export interface RecordingResolver {
  resolver: Resolver;
  /** Every hostname asked, in order. */
  asked: string[];
}

/** Answers from a fixed table; an unknown name fails (it would otherwise have gone to real DNS). */
export function tableResolver(table: Record<string, string[] | (() => string[])>): RecordingResolver {
  const asked: string[] = [];
  const resolver: Resolver = async (hostname) => {
    asked.push(hostname);
    const entry = table[hostname];
    if (entry === undefined) throw new Error(`test resolver: unexpected lookup of ${hostname}`);
    return typeof entry === 'function' ? entry() : entry;
  };
  return { resolver, asked };
}

export interface ForbiddenFetch {
  fetch: typeof fetch;
  /** URLs the code under test tried to fetch: must stay empty. */
  calls: string[];
}

/** A fetch that must never be called: it records the attempt and rejects without touching a socket. */
export function forbiddenFetch(): ForbiddenFetch {
  const calls: string[] = [];
  const fetchDouble = async (input: RequestInfo | URL): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push(url);
    throw new Error(`test fetch: the crawler tried to fetch ${url}`);
  };
  return { fetch: fetchDouble as typeof fetch, calls };
}

/**
 * A fetch that serves some URLs from memory (never opening a socket) and hands loopback URLs to `loopbackFetch`.
 * Any other URL is a test failure, so a broken guard cannot send a packet anywhere.
 */
export function inMemoryFetch(pages: Record<string, () => Response>, loopbackFetch?: typeof fetch): ForbiddenFetch {
  const calls: string[] = [];
  const fetchDouble = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    calls.push(url);
    const page = pages[url];
    if (page) return page();
    const host = new URL(url).hostname;
    if (loopbackFetch && (host === '127.0.0.1' || host === '[::1]')) return loopbackFetch(url, init);
    throw new Error(`test fetch: unexpected request to ${url}`);
  };
  return { fetch: fetchDouble as typeof fetch, calls };
}
