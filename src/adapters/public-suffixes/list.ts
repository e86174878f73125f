import type { PublicSuffixes } from './types';

/**
 * The package's `data/rules.js` is an ES module of one array literal of strings (`export default [ "ac", … ];`):
 * read as JSON, never evaluated. Throws when the file is anything else.
 */
export function rulesFromModuleText(text: string): string[] {
  const start = text.indexOf('[');
  const end = text.lastIndexOf(']');
  if (start < 0 || end < start) throw new Error('the public suffix rules file holds no array');
  return checkedRules(JSON.parse(text.slice(start, end + 1)));
}

export function checkedRules(list: unknown): string[] {
  if (!Array.isArray(list) || list.length < 1000 || !list.every((rule) => typeof rule === 'string')) {
    throw new Error('the public suffix list is not an array of rule strings');
  }
  return list as string[];
}

/** A list loaded once per process or isolate, on first use; a failed load is tried again on the next use. */
export function createPublicSuffixes(load: () => Promise<unknown>): PublicSuffixes {
  let rules: Promise<string[]> | undefined;
  return {
    async rules() {
      rules ??= load().then(checkedRules);
      try {
        return await rules;
      } catch (error) {
        rules = undefined;
        throw error;
      }
    },
  };
}

/** No list: every use fails. The default of buildDeps; both entries and the test app pass the real list. */
export const noPublicSuffixes: PublicSuffixes = {
  rules: async () => {
    throw new Error('no Public Suffix List was given to buildDeps (pass publicSuffixes)');
  },
};
