// A submission in words, shared by `status`, `submit` and `submit --wait`.
import type { McpOwnerView } from '../mcp-owner-schema';
import type { PendingPaymentRecord, SiteDetail } from './api-types';
import { describeReason, describeStatus, hasExpired } from './output';
import { describeLastEdit, describePendingEdit, describeQueue, describeStep } from '../submissions/progress-words';
import { formatTime } from '../display-time';
import {
  badgeWords,
  membershipPrices,
  membershipTiers,
  planKind,
  priceText,
  tierCovers,
  tierDisplayNames,
} from '../catalog/plans';

/**
 * The memberships that would have covered this plan, by their one name and price (the catalogue's table, as on
 * /pricing); undefined when a membership is no way out (the quota of today is used, or the URL already waits).
 */
export function membershipLine(
  record: Pick<PendingPaymentRecord, 'plan' | 'reason'>,
  baseUrl?: string,
): string | undefined {
  if (record.reason !== 'no_membership' && record.reason !== 'plan_not_covered') return undefined;
  const kind = planKind(record.plan);
  const covering = membershipTiers.filter((tier) => tierCovers[tier].includes(kind));
  const pricing = baseUrl ? ` (${baseUrl}/pricing)` : '';
  if (covering.length === 0) return `No membership covers a ${kind} listing: it is always paid${pricing}.`;
  const offers = covering
    .map((tier) => `${tierDisplayNames[tier]} (${priceText(membershipPrices[tier])})`)
    .join(' or ');
  return `Members submit ${kind} listings without paying per tool: ${offers}${pricing}.`;
}

/** The lines that explain a pending payment: why, where to pay, until when, and the membership that would cover it. */
export function paymentLines(record: PendingPaymentRecord, now: Date, baseUrl?: string): string[] {
  const expired = hasExpired(record.expires_at, now);
  const membership = membershipLine(record, baseUrl);
  return [
    `Payment required: ${describeReason(record.reason, record.plan)}`,
    ...(membership ? [membership] : []),
    `Checkout link: ${record.checkout_url}`,
    expired
      ? `The link expired at ${formatTime(record.expires_at)}; submit again for a fresh one.`
      : `The link expires at ${formatTime(record.expires_at)}.`,
  ];
}

/** A submission's full description for `status`. */
export function siteLines(site: SiteDetail, now: Date, baseUrl?: string): string[] {
  const lines = [
    `${site.name} (site_id ${site.site_id})`,
    `  URL:        ${site.url}`,
    `  Status:     ${describeStatus(site.status)}`,
    `  Submitted:  ${formatTime(site.submitted_at)}`,
  ];
  if (site.status === 'pending_payment') {
    lines.push(`  Plan:       ${site.plan}`, ...paymentLines(site, now, baseUrl).map((line) => `  ${line}`));
    return lines;
  }
  const badges = badgeWords(site);
  if (badges.length) lines.push(`  Badges:     ${badges.join(', ')}`);
  if (site.live_url) lines.push(`  Live page:  ${site.live_url}`);
  if (site.withdrawn_at)
    lines.push(
      `  Withdrawn:  ${formatTime(site.withdrawn_at)}, by its owner (statistics stay readable: tooldir stats ${site.site_id})`,
    );
  if (site.status === 'crawl_failed' && site.crawl_error) lines.push(`  Failure:    ${site.crawl_error.message}`);
  // Detail reads carry these (docs/submission-progress.md); a list item does not, so both are optional here.
  if ('queue' in site && site.queue) lines.push(`  Queue:      ${describeQueue(site.queue)}`);
  if (site.pending_edit) lines.push(`  Edit:       ${describePendingEdit(site.pending_edit)}`);
  if (site.last_edit) lines.push(`  Last edit:  ${describeLastEdit(site.last_edit)}`);
  if (site.mcp_url)
    lines.push(`  MCP server: ${site.mcp_url}`, ...('mcp' in site && site.mcp ? [`    ${describeMcp(site.mcp)}`] : []));
  if ('history' in site && site.history?.length)
    lines.push('  History:', ...site.history.map((step) => `    ${describeStep(step)}`));
  return lines;
}

/** What the last probe of the MCP server found, in one line (docs/mcp-servers.md). */
function describeMcp(mcp: McpOwnerView): string {
  const found =
    mcp.status === 'reachable'
      ? `reachable, ${mcp.tool_count} tool${mcp.tool_count === 1 ? '' : 's'}${mcp.server.name ? ` (${mcp.server.name})` : ''}`
      : mcp.status;
  const changed = mcp.changelog[0] ? `; tools last changed ${formatTime(mcp.changelog[0].changed_at)}` : '';
  return `${found}${mcp.reason ? `: ${mcp.reason}` : ''}${changed}`;
}

/** The one-line verdict at the end of `submit --wait`. */
export function finalLine(site: SiteDetail): string {
  switch (site.status) {
    case 'live':
      return `${site.name} is live: ${site.live_url ?? '(no live_url given)'}`;
    case 'rejected':
      return `${site.name} was rejected by review.`;
    case 'crawl_failed':
      return site.crawl_error
        ? `The crawl of ${site.name} failed: ${site.crawl_error.message}. Fix the site, then: tooldir retry ${site.site_id}`
        : `The crawl of ${site.name} failed. Fix the site, then: tooldir retry ${site.site_id}`;
    case 'pending_payment':
      return `The checkout link for ${site.name} expired before payment; submit again for a fresh link.`;
    default:
      return `${site.name}: ${describeStatus(site.status)}`;
  }
}
