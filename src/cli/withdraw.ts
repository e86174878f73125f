// tooldir withdraw <site_id> – take one of your live listings out of the directory for good.
import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { siteLines } from './site-view';
import { isSiteId } from './url-input';
import { CliError, usageError } from './cli-error';

export function registerWithdrawCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('withdraw')
    .description('withdraw one of your live listings: its page answers 410 and it leaves every list (cannot be undone)')
    .argument('<site_id>', 'the site_id (UUID) of the live listing')
    .option('-y, --yes', 'do not ask for confirmation (required when stdin is not a terminal)')
    .action((target: string, options: { yes?: boolean }, command: Command) =>
      run(command, async (globals) => {
        if (!isSiteId(target)) throw usageError(`Expected a site_id (UUID), got "${target}".`);
        const siteId = target.trim();
        const session = await openKeyedSession(ctx, globals);
        if (!options.yes) {
          if (!ctx.stdin.isTTY) throw usageError('Withdrawing cannot be undone: add --yes to confirm.');
          const site = await session.client.getSite(siteId);
          if (
            !(await confirm(
              ctx,
              `Withdraw ${site.name} (${site.url}) from the directory? Its page will answer 410. [y/N] `,
            ))
          ) {
            throw new CliError('cancelled', 'Nothing was withdrawn.', { exitCode: ExitCode.interrupted });
          }
        }
        const site = await session.client.withdrawSite(siteId);
        if (session.json) printJson(ctx.stdout, site);
        else
          printLines(ctx.stdout, [
            `Withdrawn: ${site.name} is no longer listed. Submit it again to list it anew.`,
            ...siteLines(site, ctx.now()),
          ]);
        return ExitCode.ok;
      }),
    );
}

async function confirm(ctx: CliContext, question: string): Promise<boolean> {
  const rl = createInterface({ input: ctx.stdin, output: ctx.stderr as NodeJS.WritableStream, terminal: false });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}
