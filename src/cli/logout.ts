// tooldir logout – forget the stored API key (the record of submissions and the address stay).
import type { Command } from 'commander';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openSession } from './session';

export function registerLogoutCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('logout')
    .description('delete the stored API key')
    .action((_options: object, command: Command) =>
      run(command, async (globals) => {
        const session = await openSession(ctx, globals);
        const hadKey = session.config.api_key !== undefined;
        if (hadKey) {
          const { api_key: _removed, key_origin: _origin, ...rest } = session.config;
          await session.store.write(rest);
        }
        const envKeyStillSet = Boolean(ctx.env.TOOLDIR_API_KEY?.trim());
        if (session.json) {
          printJson(ctx.stdout, { logged_out: true, key_removed: hadKey, config_path: session.store.path });
        } else {
          printLines(ctx.stdout, [
            hadKey ? `Logged out: the key stored in ${session.store.path} was deleted.` : 'No key was stored.',
          ]);
          if (envKeyStillSet)
            printLines(ctx.stderr, ['Note: TOOLDIR_API_KEY is still set in your environment and is still used.']);
        }
        return ExitCode.ok;
      }),
    );
}
