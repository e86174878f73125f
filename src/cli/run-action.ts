// The seam between the program and its subcommands, in its own file so the subcommands need not import the
// program that imports them.
import type { Command } from 'commander';
import type { GlobalOptions } from './session';

/** Runs one command's body and records its exit code; errors are reported in words or as JSON. */
export type RunAction = (command: Command, body: (globals: GlobalOptions) => Promise<number>) => Promise<void>;
