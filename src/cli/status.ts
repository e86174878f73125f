// tooldir status <url | site_id> – one submission's state in words.
import type { Command } from 'commander';
import type { SiteDetail } from './api-types';
import { CliError } from './cli-error';
import { findRemembered } from './config-store';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession, type KeyedSession } from './session';
import { siteLines } from './site-view';
import { canonicalUrlKey, isSiteId, normalizeUrlArg } from './url-input';

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
        const url = byId ? undefined : normalizeUrlArg(target);
        const session = await openKeyedSession(ctx, globals);
        const site = url === undefined ? await session.client.getSite(target.trim()) : await findByUrl(session, url);
        if (session.json) printJson(ctx.stdout, site);
        else printLines(ctx.stdout, siteLines(site, ctx.now(), session.baseUrl));
        return ExitCode.ok;
      }),
    );
}

/** The list's `url` filter first (then the detail read of the match: only it carries history and queue), then the site_ids this CLI remembers for the URL (newest first). */
async function findByUrl(session: KeyedSession, url: string): Promise<SiteDetail> {
  const key = canonicalUrlKey(url);
  const listed = await session.client.listSites({ url, limit: 100 });
  // Filter again here: a server without the `url` filter answers with the whole first page.
  const match = listed.sites.find((site) => canonicalUrlKey(site.url) === key);
  if (match) return session.client.getSite(match.site_id);

  for (const remembered of findRemembered(session.config, url, session.baseUrl)) {
    try {
      return await session.client.getSite(remembered.site_id);
    } catch (error) {
      if (!(error instanceof CliError && error.code === 'not_found')) throw error;
    }
  }
  throw new CliError('not_found', `No submission of yours was found for ${url}.`, {
    extraLines: ['Unpaid submissions are only found when this CLI made them; use the site_id instead.'],
  });
}
