// tooldir login – check an API key against the service, then store it (file mode 0600).
import type { Command } from 'commander';
import { ApiClient } from './api-client';
import { CliError, usageError } from './cli-error';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { promptHidden, readKeyFromPipe } from './read-key';
import { checkKeyTransport, openSession } from './session';

interface LoginOptions {
  key?: string;
}

export function registerLoginCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('login')
    .description('check an API key against the service and store it')
    .option('--key <key>', 'the API key (visible in shell history; prefer the prompt or stdin)')
    .addHelpText(
      'after',
      '\nWithout --key the key is read from stdin when it is piped (echo "$KEY" | tooldir login),\n' +
        'otherwise asked for on the terminal without echo. The key is stored for the address it was checked\n' +
        'against (--base-url, TOOLDIR_BASE_URL or the stored one), which becomes the default; it is never sent\n' +
        'to another origin, and never over plain http except to this machine.',
    )
    .action((options: LoginOptions, command: Command) =>
      run(command, async (globals) => {
        const session = await openSession(ctx, globals);
        // Before asking: a key typed for an address it may not travel to is never read, let alone sent.
        checkKeyTransport(session.baseUrl);
        const key = (options.key ?? (await askForKey(ctx))).trim();
        if (!key) throw usageError('No API key given (use --key, pipe it on stdin, or type it at the prompt).');

        const client = new ApiClient({ baseUrl: session.baseUrl, apiKey: key, fetch: ctx.fetch });
        try {
          await client.listSites({ limit: 1 });
        } catch (error) {
          if (error instanceof CliError && error.code === 'unauthorized') {
            throw new CliError('invalid_key', `Invalid key: ${session.baseUrl} refused it. Nothing was stored.`);
          }
          throw error;
        }

        // The key belongs to the origin it was checked against, and that address becomes the default.
        await session.store.update((config) => ({
          ...config,
          api_key: key,
          key_origin: new URL(session.baseUrl).origin,
          base_url: session.baseUrl,
        }));
        if (session.json) {
          printJson(ctx.stdout, { logged_in: true, base_url: session.baseUrl, config_path: session.store.path });
        } else {
          printLines(ctx.stdout, [`Logged in to ${session.baseUrl}. Key stored in ${session.store.path}.`]);
        }
        return ExitCode.ok;
      }),
    );
}

async function askForKey(ctx: CliContext): Promise<string> {
  if (ctx.stdin.isTTY) return promptHidden(ctx.stdin, ctx.stderr, 'API key (input hidden): ');
  return readKeyFromPipe(ctx.stdin);
}
