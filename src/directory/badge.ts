// The "Listed on tooldir" badge a tool maker embeds on their own site (served at /badge/{slug}.svg).
// Pure rendering: the route looks the tool up; this file only decides what the image says and looks like.

export const BADGE_THEMES = ['light', 'dark'] as const;
export type BadgeTheme = (typeof BADGE_THEMES)[number];

export interface BadgeInput {
  /** The tool's name: it only reaches the SVG's accessible title, escaped. */
  name: string;
  is_feature: boolean;
  theme: BadgeTheme;
}

const HEIGHT = 28;

// Colours per theme: the badge must read on the page it is embedded in, so each theme has its own contrast pair.
const PALETTE: Record<BadgeTheme, { background: string; border: string; text: string; mark: string; accent: string }> =
  {
    light: { background: '#ffffff', border: '#d0d0d5', text: '#1d1d1f', mark: '#1d1d1f', accent: '#b7791f' },
    dark: { background: '#1d1d1f', border: '#3a3a3f', text: '#f5f5f7', mark: '#f5f5f7', accent: '#f6c453' },
  };

/** XML text and attribute escaping: a tool name is the submitter's input and must never become markup. */
export function escapeXml(text: string): string {
  return text
    .replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

/** The badge's wording: featured tools get their own variant, because featured is what they paid for. */
export function badgeLabel(input: Pick<BadgeInput, 'is_feature'>): string {
  return input.is_feature ? 'Featured on tooldir' : 'Listed on tooldir';
}

/**
 * The SVG. Width follows the label (7 px per character of the 12 px system font is a safe upper bound),
 * so both variants fit without clipping; `role="img"` and `<title>` make screen readers say which tool it is.
 */
export function renderBadge(input: BadgeInput): string {
  const colours = PALETTE[input.theme];
  const label = badgeLabel(input);
  const textX = 30;
  const width = textX + label.length * 7 + 10;
  const title = escapeXml(`${input.name} – ${label}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${HEIGHT}" viewBox="0 0 ${width} ${HEIGHT}" role="img" aria-label="${title}">
<title>${title}</title>
<rect x="0.5" y="0.5" width="${width - 1}" height="${HEIGHT - 1}" rx="6" fill="${colours.background}" stroke="${colours.border}"/>
<rect x="9" y="8" width="12" height="12" rx="3" fill="none" stroke="${input.is_feature ? colours.accent : colours.mark}" stroke-width="2"/>
<path d="M12 14h6" stroke="${input.is_feature ? colours.accent : colours.mark}" stroke-width="2"/>
<text x="${textX}" y="18.5" fill="${colours.text}" style="font:600 12px system-ui,-apple-system,'Segoe UI',sans-serif">${escapeXml(label)}</text>
</svg>`;
}
