// tooldir categories – the directory's categories: the slugs `submit --category` takes, with their live tool counts.
import type { Command } from 'commander';
import { ApiClient } from './api-client';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { formatTable, printJson, printLines, truncate } from './output';
import type { RunAction } from './run-action';
import { openSession } from './session';

export function registerCategoriesCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('categories')
    .description('list the categories a tool can be submitted in (`submit --category <slug>`), with their live tools')
    .action((_options: object, command: Command) =>
      run(command, async (globals) => {
        const session = await openSession(ctx, globals);
        // A public read: no key is needed, so none is sent.
        const { categories } = await new ApiClient({ baseUrl: session.baseUrl, fetch: ctx.fetch }).listCategories();
        if (session.json) printJson(ctx.stdout, { categories });
        else if (categories.length === 0) printLines(ctx.stdout, ['No categories yet.']);
        else {
          const rows = categories.map((c) => [
            c.slug,
            truncate(c.name, 40),
            String(c.tool_count),
            truncate(c.description ?? '', 60),
          ]);
          printLines(ctx.stdout, [formatTable(['slug', 'name', 'tools', 'description'], rows)]);
        }
        return ExitCode.ok;
      }),
    );
}
