import { describe, expect, it } from 'vitest';
import { isSlug, nextFreeSlug, slugify } from '../../../src/pipeline/slug';

describe('slugify', () => {
  it.each([
    ['Quill Writer', 'quill-writer'],
    ['  Ünïcödé Tööl — v2!  ', 'unicode-tool-v2'],
    ['<script>alert(1)</script>', 'script-alert-1-script'],
    ['日本語', 'tool'],
    ['---', 'tool'],
    ['a'.repeat(80), 'a'.repeat(60)],
    [`${'ab-'.repeat(25)}x`, 'ab-'.repeat(20).slice(0, 59)],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
    expect(isSlug(slugify(name))).toBe(true);
  });
});

describe('nextFreeSlug', () => {
  it('takes the base, then the first free numbered suffix', () => {
    expect(nextFreeSlug('tool', [])).toBe('tool');
    expect(nextFreeSlug('tool', ['tool'])).toBe('tool-2');
    expect(nextFreeSlug('tool', ['tool', 'tool-2', 'tool-4'])).toBe('tool-3');
  });
});

describe('isSlug', () => {
  it('refuses anything a slug cannot be', () => {
    for (const bad of ['', 'UPPER', 'a--b', '-a', 'a-', '../x', 'a b', 'a'.repeat(100)])
      expect(isSlug(bad), bad).toBe(false);
  });
});
