// tooldir edit <site_id> --name/--description – propose new text for one of your live tools (an editor approves it);
// tooldir edit <site_id> --url – fix the address of a submission whose crawl failed (crawled again at once).
import type { Command } from 'commander';
import { usageError } from './cli-error';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { siteLines } from './site-view';
import { isSiteId, readUrlArg } from './url-input';
import { MAX_RETRIES_PER_DAY } from '../catalog/retry-limit';

interface EditOptions {
  name?: string;
  description?: string;
  url?: string;
  mcpUrl?: string;
  removeMcpUrl?: boolean;
}

export function registerEditCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('edit')
    .description(
      'propose a new name and/or description for one of your live tools (an editor approves it), or fix the address of a failed crawl with --url',
    )
    .argument('<site_id>', 'the site_id (UUID) of the live tool, or of the submission whose crawl failed')
    .option('--name <name>', 'the new display name (2 to 100 characters; no other tool may hold it)')
    .option('--description <text>', 'the new description (plain text, 1 to 500 characters)')
    .option(
      '--url <address>',
      'the new website address of a submission whose crawl failed (https:// is added when missing)',
    )
    .option('--mcp-url <url>', "the tool's remote MCP endpoint (set at once, no editor; probed in the background)")
    .option('--remove-mcp-url', "remove the tool's MCP endpoint")
    .addHelpText(
      'after',
      '\nA new edit replaces one still waiting for review. `tooldir status <site_id>` shows the decision.\n' +
        `--url works only in status crawl_failed, on its own: the submission is crawled again at once, without paying again, ` +
        `and it counts as a retry (at most ${MAX_RETRIES_PER_DAY} a day).`,
    )
    .action((target: string, options: EditOptions, command: Command) =>
      run(command, async (globals) => {
        if (!isSiteId(target)) throw usageError(`Expected a site_id (UUID), got "${target}".`);
        if (options.mcpUrl !== undefined && options.removeMcpUrl)
          throw usageError('Give --mcp-url or --remove-mcp-url, not both.');
        const mcpUrl = options.removeMcpUrl ? null : options.mcpUrl;
        const textEdit = options.name !== undefined || options.description !== undefined || mcpUrl !== undefined;
        if (options.url !== undefined && textEdit) {
          throw usageError(
            'Give --url on its own: it fixes a failed crawl, while --name and --description edit a live tool.',
          );
        }
        if (options.url === undefined && !textEdit) {
          throw usageError('Give --name, --description, --mcp-url or --remove-mcp-url, or --url.');
        }
        const typed = options.url === undefined ? undefined : readUrlArg(options.url);
        const url = typed?.url;
        const session = await openKeyedSession(ctx, globals);
        // The same words as every surface when https:// was added (src/submissions/url.ts).
        if (typed?.notice && !session.json) printLines(ctx.stderr, [typed.notice]);
        const edit = {
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.description !== undefined ? { description: options.description } : {}),
          ...(url !== undefined ? { url } : {}),
          ...(mcpUrl !== undefined ? { mcp_url: mcpUrl } : {}),
        };
        const site = await session.client.editSite(target.trim(), edit);
        const done =
          url !== undefined
            ? 'Address changed: the submission is queued to be crawled again.'
            : options.name === undefined && options.description === undefined
              ? mcpUrl === null
                ? 'MCP endpoint removed.'
                : 'MCP endpoint changed: it is probed in the background (`tooldir status <site_id>` shows what was found).'
              : 'Edit filed: the public page keeps its text until an editor approves.';
        if (session.json) printJson(ctx.stdout, site);
        else printLines(ctx.stdout, [done, ...siteLines(site, ctx.now())]);
        return ExitCode.ok;
      }),
    );
}
