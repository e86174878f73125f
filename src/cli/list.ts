// tooldir list – the caller's submissions as an aligned table, newest first.
import { InvalidArgumentError, type Command } from 'commander';
import type { ListEnvelope } from './api-types';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { formatTable, printJson, printLines, truncate } from './output';
import { formatTime } from '../display-time';
import { describeStatus } from '../submissions/progress-words';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';

interface ListOptions {
  limit?: number;
  offset?: number;
}

export function registerListCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('list')
    .description('list your submissions, newest first (unpaid ones are not listed)')
    .option('--limit <n>', 'how many to show, 1 to 100 (default: 100)', integerIn(1, 100))
    .option('--offset <n>', 'how many to skip (default: 0)', integerIn(0, Number.MAX_SAFE_INTEGER))
    .action((options: ListOptions, command: Command) =>
      run(command, async (globals) => {
        const session = await openKeyedSession(ctx, globals);
        const envelope = await session.client.listSites({ limit: options.limit, offset: options.offset });
        if (session.json) printJson(ctx.stdout, envelope);
        else printLines(ctx.stdout, renderList(envelope));
        return ExitCode.ok;
      }),
    );
}

/** The table and its "showing a–b of total" footer. */
export function renderList(envelope: ListEnvelope): string[] {
  const { sites, offset, total } = envelope;
  if (sites.length === 0) {
    const beyond = offset > 0 ? ` past offset ${offset}` : '';
    return [`No submissions${beyond}. Unpaid ones are not listed; see \`tooldir status <url>\`.`];
  }
  const rows = sites.map((site) => [
    describeStatus(site.status),
    truncate(site.name, 40),
    truncate(site.url, 60),
    formatTime(site.submitted_at),
    site.site_id,
  ]);
  const range = `showing ${offset + 1}–${offset + sites.length}${total === undefined ? '' : ` of ${total}`}`;
  return [formatTable(['status', 'name', 'url', 'submitted', 'site_id'], rows), '', range];
}

/** A commander parser for an integer option within bounds. */
function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `must be a whole number ≥ ${min}`
          : `must be a whole number from ${min} to ${max}`,
      );
    }
    return parsed;
  };
}
