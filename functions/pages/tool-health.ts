// The tool page's health lines (docs/health.md "Readers see freshness"): when the site was last checked, and the
// notice of a listing the re-check has hidden.
import { html } from 'hono/html';
import { formatDate, timeAgo } from '../../src/display-time';
import type { PublicTool } from '../../src/directory/live-tools';
import { HEALTH_ABOUT_PATH } from '../../src/health/check-site';

/** " Checked 3 hours ago." after the listing line; nothing before the first check. */
export function checkedLine(tool: PublicTool, now: Date) {
  const at = tool.health.last_checked_at;
  return at ? html` <a href="${HEALTH_ABOUT_PATH}">Checked</a> <time datetime="${at}">${timeAgo(at, now)}</time>.` : '';
}

/** The notice above a hidden listing: why it is out of the lists, since when, and that it comes back by itself. */
export function healthNotice(tool: PublicTool) {
  if (!tool.hidden) return '';
  const { health } = tool;
  const what =
    health.state === 'moved'
      ? html`This tool's website now leads to another domain${health.moved_to ? html` (${health.moved_to})` : ''}`
      : html`This tool's website has not answered since ${formatDate(health.failing_since)}${health.reason ? html` (${health.reason})` : ''}`;
  return html`<div class="notice" role="status"><p><strong>${what}.</strong> The listing is out of search, categories and the
home page until a daily check finds it answering again.</p></div>`;
}
