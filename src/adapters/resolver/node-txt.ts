// Node-only: TXT records through the operating system's resolver configuration (c-ares).
import { resolveTxt } from 'node:dns/promises';
import type { TxtResolver } from './resolver';

/** Node: the operating system's resolver configuration (c-ares), each record's strings joined. */
export function createNodeTxtResolver(): TxtResolver {
  return async (name) => {
    try {
      return (await resolveTxt(name)).map((strings) => strings.join(''));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw error;
    }
  };
}
