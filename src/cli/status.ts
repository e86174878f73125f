// tooldir status <url | site_id> – one submission's state in words.
import type { Command } from 'commander';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { findByUrl } from './find-by-url';
import { siteLines } from './site-view';
import { isSiteId, normalizeUrlArg } from './url-input';

export function registerStatusCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('status')
    .description("show a submission's status, by site_id or by the tool's URL")
    .argument('<url|site_id>', 'a site_id (UUID) or the URL that was submitted')
    .addHelpText(
      'after',
      '\nBy URL the service is asked first; unpaid submissions, which it does not list,\n' +
        'are found through the site_ids this CLI recorded when it submitted them.',
    )
    .action((target: string, _options: object, command: Command) =>
      run(command, async (globals) => {
        const byId = isSiteId(target);
        const url = byId ? undefined : normalizeUrlArg(target, { orSiteId: true });
        const session = await openKeyedSession(ctx, globals);
        const site = url === undefined ? await session.client.getSite(target.trim()) : await findByUrl(session, url);
        if (session.json) printJson(ctx.stdout, site);
        else printLines(ctx.stdout, siteLines(site, ctx.now(), session.baseUrl));
        return ExitCode.ok;
      }),
    );
}
