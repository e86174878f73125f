import type { DisposableDomains } from './types';

/**
 * A list loaded once per process or isolate, on first use (sign-in requests only), and kept as a Set. A load
 * that fails rejects this use and is tried again on the next one (src/accounts/disposable-mail.ts decides what
 * a failure means).
 */
export function createDisposableDomains(load: () => Promise<unknown>): DisposableDomains {
  let set: Promise<Set<string>> | undefined;
  const read = async () => {
    const list = await load();
    if (!Array.isArray(list) || !list.every((d) => typeof d === 'string'))
      throw new Error('the disposable-domain list is not an array of strings');
    return new Set(list.map((d: string) => d.trim().toLowerCase()));
  };
  return {
    async has(domain) {
      set ??= read();
      try {
        return (await set).has(domain);
      } catch (error) {
        set = undefined;
        throw error;
      }
    },
  };
}

/** No list: refuses nothing. The default of buildDeps; both entries and the test app pass the real list. */
export const noDisposableDomains: DisposableDomains = { has: async () => false };
