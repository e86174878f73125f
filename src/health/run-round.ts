// A round of re-checks (docs/health.md): claim the due tools (or the named ones), check them a few at a time, write
// each record, tell owners, and hand the webhook rows the records wrote to the queue.
import type { Deps } from '../deps';
import { HEALTH_ROUND_CONCURRENCY, HEALTH_ROUND_LIMIT, type HealthState } from '../catalog/health-states';
import { announceWebhookEvents } from '../webhooks/announce';
import { checkSite } from './check-site';
import { decideHealth } from './health-rules';
import { claimTools, recordCheck, type ClaimedTool } from './health-store';
import { mailHealthNotice } from './health-mail';
import { probeSiteMcpQuietly } from '../mcp-servers/probe-site';

export interface RoundReport {
  claimed: number;
  checked: number;
  states: Record<HealthState, number>;
  hidden: number;
  restored: number;
  notices: number;
}

/**
 * Runs one round. Without `siteIds`: the tools due now (each at most once a UTC day, at its own second of the day).
 * With `siteIds`: those live tools now, even if checked today (an operator's explicit request).
 */
export async function runHealthRound(
  deps: Deps,
  options: { siteIds?: string[]; limit?: number } = {},
): Promise<RoundReport> {
  const now = deps.now();
  const tools = await claimTools(
    deps.db,
    now,
    options.siteIds ? { siteIds: options.siteIds } : { limit: options.limit ?? HEALTH_ROUND_LIMIT },
  );
  const report: RoundReport = {
    claimed: tools.length,
    checked: 0,
    states: { ok: 0, failing: 0, moved: 0, unchecked: 0 },
    hidden: 0,
    restored: 0,
    notices: 0,
  };
  let next = 0;
  const worker = async () => {
    while (next < tools.length) {
      const tool = tools[next++] as ClaimedTool;
      await checkOne(deps, tool, report);
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEALTH_ROUND_CONCURRENCY, tools.length) }, worker));
  if (report.notices > 0) await announceWebhookEvents(deps);
  return report;
}

async function checkOne(deps: Deps, tool: ClaimedTool, report: RoundReport): Promise<void> {
  try {
    const outcome = await checkSite(deps, {
      url: tool.url,
      crawledUrl: tool.crawledUrl,
      etag: tool.before.etag,
      lastModified: tool.before.lastModified,
    });
    const now = deps.now();
    const after = decideHealth(tool.before, outcome, now, deps.config.health.hideAfterDays);
    if (!(await recordCheck(deps.db, tool, after, now))) return; // another delivery wrote this check already
    // The listing's MCP server is re-checked with its page; an MCP fault never fails the page's check.
    if (tool.mcpUrl) await probeSiteMcpQuietly(deps, tool.siteId);
    report.checked++;
    report.states[after.state]++;
    if (after.hidden && !tool.before.hidden) report.hidden++;
    if (!after.hidden && tool.before.hidden) report.restored++;
    if (outcome.state !== 'ok')
      deps.log.info('health check', { site_id: tool.siteId, state: outcome.state, detail: outcome.detail });
    if (after.notice) {
      report.notices++;
      await mailHealthNotice(deps, tool, after);
    }
  } catch (error) {
    // Ours, not the site's (the check never throws for the site): the claim's lease makes the tool due again soon.
    deps.log.error('health check failed on our side', { site_id: tool.siteId, err: String(error) });
  }
}
