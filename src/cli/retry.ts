// tooldir retry <site_id> – put a submission whose crawl failed back in the queue.
import type { Command } from 'commander';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { siteLines } from './site-view';
import { isSiteId } from './url-input';
import { usageError } from './cli-error';
import { MAX_RETRIES_PER_DAY } from '../catalog/retry-limit';

export function registerRetryCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('retry')
    .description(
      `crawl a submission again after its crawl failed (status crawl_failed; at most ${MAX_RETRIES_PER_DAY} times a day)`,
    )
    .argument('<site_id>', 'the site_id (UUID) of the submission')
    .action((target: string, _options: object, command: Command) =>
      run(command, async (globals) => {
        if (!isSiteId(target)) throw usageError(`Expected a site_id (UUID), got "${target}".`);
        const session = await openKeyedSession(ctx, globals);
        const site = await session.client.retrySite(target.trim());
        if (session.json) printJson(ctx.stdout, site);
        else
          printLines(ctx.stdout, [
            'Queued again: the crawler will try the site once more.',
            ...siteLines(site, ctx.now()),
          ]);
        return ExitCode.ok;
      }),
    );
}
