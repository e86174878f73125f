// The commander setup: global options, one subcommand per file, exit codes instead of process.exit.
import { Command, CommanderError } from 'commander';
import { CliError } from './cli-error';
import type { CliContext } from './context';
import { ExitCode, exitCodesHelp } from './exit-codes';
import { registerListCommand } from './list';
import { registerLoginCommand } from './login';
import { registerLogoutCommand } from './logout';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import type { GlobalOptions } from './session';
import { registerStatusCommand } from './status';
import { registerRetryCommand } from './retry';
import { registerStatsCommand } from './stats';
import { registerSubmitCommand } from './submit';
import { registerCategoriesCommand } from './categories';
import { registerEditCommand } from './edit';

/** Parses `argv` (without node and script), runs the command and returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], ctx: CliContext): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const run: RunAction = async (command, body) => {
    const globals = command.optsWithGlobals<GlobalOptions>();
    try {
      exitCode = await body(globals);
    } catch (error) {
      exitCode = reportError(ctx, error, globals.json === true);
    }
  };
  const program = buildProgram(ctx, run);
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    return reportError(ctx, error, false);
  }
  return exitCode;
}

/** The `tooldir` command tree, writing through the context's streams. */
export function buildProgram(ctx: CliContext, run: RunAction): Command {
  const program = new Command('tooldir')
    .description('Submit tools to the AI tool directory and follow their review, from the terminal.')
    .version(ctx.version, '-V, --version', 'print the version')
    .option(
      '--base-url <url>',
      'service address (default: $TOOLDIR_BASE_URL, the stored one, or http://127.0.0.1:8787)',
    )
    .option('--json', 'print one JSON document on stdout, for scripts')
    .helpOption('-h, --help', 'show help for the command')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (text) => ctx.stdout.write(text),
      writeErr: (text) => ctx.stderr.write(text),
    })
    .exitOverride()
    .addHelpText('afterAll', `\n${exitCodesHelp}\n`);
  program.helpCommand('help [command]', 'show help for a command');
  registerLoginCommand(program, ctx, run);
  registerLogoutCommand(program, ctx, run);
  registerSubmitCommand(program, ctx, run);
  registerStatusCommand(program, ctx, run);
  registerListCommand(program, ctx, run);
  registerRetryCommand(program, ctx, run);
  registerStatsCommand(program, ctx, run);
  registerEditCommand(program, ctx, run);
  registerCategoriesCommand(program, ctx, run);
  return program;
}

/** Prints an error without a stack trace and returns the exit code it stands for. */
function reportError(ctx: CliContext, error: unknown, json: boolean): number {
  const failure =
    error instanceof CliError
      ? error
      : new CliError('internal_error', `Unexpected error: ${error instanceof Error ? error.message : String(error)}`);
  if (json) printJson(ctx.stdout, failure.toBody());
  else printLines(ctx.stderr, [`Error: ${failure.message}`, ...failure.extraLines]);
  if (!(error instanceof CliError) && ctx.env.TOOLDIR_DEBUG && error instanceof Error && error.stack) {
    ctx.stderr.write(`${error.stack}\n`);
  }
  return failure.exitCode;
}
