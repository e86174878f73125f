// tooldir stats <site_id | url> [--from --to] – a tool's listing statistics, as a small chart or JSON.
import type { Command } from 'commander';
import type { CliContext } from './context';
import { usageError } from './cli-error';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { statsLines } from './stats-chart';
import { isSiteId, normalizeUrlArg } from './url-input';
import { findByUrl } from './find-by-url';
import { isCalendarDay } from '../utc-day';

export function registerStatsCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('stats')
    .description("show a tool's views, clicks, card impressions and badge loads per day (default: the last 30 days)")
    .argument('<url|site_id>', 'the site_id (UUID) of your submission, or the URL that was submitted (as for status)')
    .option('--from <date>', 'first UTC day, YYYY-MM-DD (default: 29 days before --to)')
    .option('--to <date>', 'last UTC day, YYYY-MM-DD (default: today)')
    .addHelpText('after', '\nAt most 400 days. Bots and prefetches are not counted; today is updated hourly.')
    .action((target: string, options: { from?: string; to?: string }, command: Command) =>
      run(command, async (globals) => {
        const url = isSiteId(target) ? undefined : normalizeUrlArg(target, { orSiteId: true });
        for (const name of ['from', 'to'] as const) {
          const value = options[name];
          if (value !== undefined && !isCalendarDay(value))
            throw usageError(`--${name} must be a date YYYY-MM-DD, got "${value}".`);
        }
        const session = await openKeyedSession(ctx, globals);
        const siteId = url === undefined ? target.trim() : (await findByUrl(session, url)).site_id;
        const stats = await session.client.getSiteStats(siteId, options);
        if (session.json) printJson(ctx.stdout, stats);
        else printLines(ctx.stdout, statsLines(stats));
        return ExitCode.ok;
      }),
    );
}
