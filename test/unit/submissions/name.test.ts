import { describe, expect, it } from 'vitest';
import { checkName, normalizeName } from '../../../src/submissions/name';

describe('checkName', () => {
  it.each([
    ['ab', 'ab'],
    ['  Acme Writer  ', 'Acme Writer'],
    ['x'.repeat(100), 'x'.repeat(100)],
    ['😀😀', '😀😀'],
    ['Café 東京', 'Café 東京'],
  ])('accepts %j', (input, expected) => {
    expect(checkName(input)).toEqual({ ok: true, name: expected });
  });

  it.each([
    ['a', '2 to 100'],
    ['   a   ', '2 to 100'],
    ['', '2 to 100'],
    ['x'.repeat(101), '2 to 100'],
    ['bad\u0000name', 'control'],
    ['bad\nname', 'control'],
    ['bad\u007fname', 'control'],
    ['bad\ud800name', 'Unicode'],
    ['\udc00ab', 'Unicode'],
  ])('refuses %j', (input, fragment) => {
    const check = checkName(input);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toContain(fragment);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkName('😀'.repeat(100)).ok).toBe(true);
    expect(checkName('😀'.repeat(101)).ok).toBe(false);
  });
});

describe('normalizeName', () => {
  it('compares case-insensitively after trimming and collapsing whitespace', () => {
    expect(normalizeName('  Acme   Writer ')).toBe('acme writer');
    expect(normalizeName('ACME\tWRITER')).toBe(normalizeName('acme writer'));
  });
});
