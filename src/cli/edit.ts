// tooldir edit <site_id> --name/--description – propose new text for one of your live tools (an editor approves it).
import type { Command } from 'commander';
import { usageError } from './cli-error';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { siteLines } from './site-view';
import { isSiteId } from './url-input';

interface EditOptions {
  name?: string;
  description?: string;
}

export function registerEditCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('edit')
    .description('propose a new name and/or description for one of your live tools; it changes once an editor approves')
    .argument('<site_id>', 'the site_id (UUID) of the live tool')
    .option('--name <name>', 'the new display name (2 to 100 characters; no other tool may hold it)')
    .option('--description <text>', 'the new description (plain text, 1 to 500 characters)')
    .addHelpText(
      'after',
      '\nA new edit replaces one still waiting for review. `tooldir status <site_id>` shows the decision.',
    )
    .action((target: string, options: EditOptions, command: Command) =>
      run(command, async (globals) => {
        if (!isSiteId(target)) throw usageError(`Expected a site_id (UUID), got "${target}".`);
        if (options.name === undefined && options.description === undefined)
          throw usageError('Give --name, --description or both.');
        const session = await openKeyedSession(ctx, globals);
        const edit = {
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
        };
        const site = await session.client.editSite(target.trim(), edit);
        if (session.json) printJson(ctx.stdout, site);
        else
          printLines(ctx.stdout, [
            'Edit filed: the public page keeps its text until an editor approves.',
            ...siteLines(site, ctx.now()),
          ]);
        return ExitCode.ok;
      }),
    );
}
