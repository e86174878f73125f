// The badge's rendering rules: wording per variant, colours per theme, escaping of the tool's name.
import { describe, expect, it } from 'vitest';
import { badgeLabel, escapeXml, renderBadge } from '../../../src/directory/badge';

describe('badge rendering', () => {
  it('says "Listed on tooldir", or "Featured on tooldir" for a featured tool', () => {
    expect(badgeLabel({ is_feature: false })).toBe('Listed on tooldir');
    expect(badgeLabel({ is_feature: true })).toBe('Featured on tooldir');
    expect(renderBadge({ name: 'A', is_feature: false, theme: 'light' })).toContain('>Listed on tooldir</text>');
    expect(renderBadge({ name: 'A', is_feature: true, theme: 'light' })).toContain('>Featured on tooldir</text>');
  });

  it('is wider for the longer label, so neither variant clips its text', () => {
    const width = (svg: string) => Number(/<svg[^>]* width="(\d+)"/.exec(svg)![1]);
    const listed = width(renderBadge({ name: 'A', is_feature: false, theme: 'light' }));
    const featured = width(renderBadge({ name: 'A', is_feature: true, theme: 'light' }));
    expect(featured).toBeGreaterThan(listed);
  });

  it('draws the dark theme on a dark background with light text', () => {
    const light = renderBadge({ name: 'A', is_feature: false, theme: 'light' });
    const dark = renderBadge({ name: 'A', is_feature: false, theme: 'dark' });
    expect(light).toContain('fill="#ffffff"');
    expect(dark).toContain('fill="#1d1d1f" stroke');
    expect(dark).toContain('<text x="30" y="18.5" fill="#f5f5f7"');
    expect(dark).not.toBe(light);
  });

  it('escapes a hostile name everywhere it appears, and drops characters XML cannot hold', () => {
    const svg = renderBadge({
      name: `</title><script>alert(1)</script>" onload="x' & \u0001`,
      is_feature: false,
      theme: 'light',
    });
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('" onload="');
    expect(svg).not.toContain('\u0001');
    expect(svg).toContain('&#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#34; onload=&#34;x&#39; &#38;');
    expect(escapeXml(`<>&"'`)).toBe('&#60;&#62;&#38;&#34;&#39;');
  });
});
