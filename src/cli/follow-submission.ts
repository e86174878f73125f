// `submit --wait`: read the submission until it is live, rejected, crawl_failed, or its unpaid link expired.
import type { ApiClient } from './api-client';
import { terminalStatuses, type SiteDetail } from './api-types';
import { CliError } from './cli-error';
import type { CliContext } from './context';
import { ExitCode, type ExitCodeValue } from './exit-codes';
import { describeStatus, hasExpired } from './output';
import type { Progress } from './progress';

const spinnerFrameMs = 120;
const maxConsecutiveFailures = 5;
const maxBackoffMs = 30_000;

export interface FollowResult {
  site: SiteDetail;
  exitCode: ExitCodeValue;
}

/** Polls `GET /sites/{id}` every `ctx.pollIntervalMs`; passing hiccups (network, 5xx, 429) are retried. */
export async function followSubmission(
  ctx: CliContext,
  client: ApiClient,
  siteId: string,
  progress: Progress,
): Promise<FollowResult> {
  let failures = 0;
  for (;;) {
    let site: SiteDetail;
    try {
      site = await client.getSite(siteId);
      failures = 0;
    } catch (error) {
      failures += 1;
      if (!isPassing(error) || failures >= maxConsecutiveFailures) {
        progress.stop();
        throw error;
      }
      progress.show(`${(error as CliError).message} Retrying…`);
      await pause(ctx, progress, Math.min(ctx.pollIntervalMs * 2 ** failures, maxBackoffMs));
      continue;
    }
    const verdict = verdictOf(site, ctx.now());
    if (verdict !== undefined) {
      progress.stop();
      return { site, exitCode: verdict };
    }
    const waitingFor = site.status === 'pending_payment' ? ' (checkout link above)' : '';
    progress.show(`${describeStatus(site.status)}${waitingFor}`);
    await pause(ctx, progress, ctx.pollIntervalMs);
  }
}

/** The exit code when `site` is final, or undefined while it is still moving. */
export function verdictOf(site: SiteDetail, now: Date): ExitCodeValue | undefined {
  if (site.status === 'live') return ExitCode.ok;
  if (terminalStatuses.has(site.status)) return ExitCode.error;
  if (site.status === 'pending_payment' && hasExpired(site.expires_at, now)) return ExitCode.paymentRequired;
  return undefined;
}

function isPassing(error: unknown): boolean {
  if (!(error instanceof CliError)) return false;
  if (error.code === 'network_error') return true;
  const status = error.httpStatus ?? 0;
  return status === 429 || status >= 500;
}

/** Sleeps `ms`, advancing the spinner meanwhile when it is animated. */
async function pause(ctx: CliContext, progress: Progress, ms: number): Promise<void> {
  if (!progress.animated) return ctx.sleep(ms);
  for (let waited = 0; waited < ms; waited += spinnerFrameMs) {
    await ctx.sleep(Math.min(spinnerFrameMs, ms - waited));
    progress.tick();
  }
}
