// tooldir submit <url> – submit a tool; say whether it was queued or needs payment; optionally follow it.
import { Option, type Command } from 'commander';
import type { SubmitOutcome } from './api-client';
import type { Plan } from './api-types';
import { defaultPlan, planNames } from '../catalog/plans';
import type { CliContext } from './context';
import { rememberSubmission } from './config-store';
import { ExitCode } from './exit-codes';
import { followSubmission } from './follow-submission';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { createProgress } from './progress';
import { openKeyedSession, type KeyedSession } from './session';
import { finalLine, paymentLines } from './site-view';
import { readUrlArg } from './url-input';
import { submitWithRetries } from './submit-retry';
import { usageError } from './cli-error';
import { LinkNotOpenedError } from './opener';
import { MAX_CATEGORIES_PER_TOOL } from '../categories/category-rules';

/** Commander's way of taking an option more than once. */
const collect = (value: string, previous: string[]): string[] => [...previous, value];

interface SubmitOptions {
  name: string;
  plan?: Plan;
  category?: string[];
  email?: string;
  mcpUrl?: string;
  open?: boolean;
  wait?: boolean;
}

export function registerSubmitCommand(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('submit')
    .description('submit a tool to the directory')
    .argument('<url>', "the tool's website (https:// is added when missing)")
    .requiredOption('--name <name>', "the tool's display name (2 to 100 characters)")
    .addOption(
      new Option(
        '--plan <plan>',
        `listing plan (default: ${defaultPlan}; re-submitting a URL that waits for payment keeps its plan)`,
      ).choices(planNames),
    )
    .option(
      '--category <slug>',
      `a category slug from \`tooldir categories\` (repeat for more, at most ${MAX_CATEGORIES_PER_TOOL})`,
      collect,
      [],
    )
    .option('--email <email>', "contact for review notifications (default: the account's e-mail)")
    .option('--mcp-url <url>', "the tool's remote MCP endpoint (streamable HTTP or SSE), probed with the crawl")
    .option('--open', 'open the checkout link in the browser when payment is needed')
    .option('--wait', 'follow the submission until it is live, rejected, crawl_failed, or its unpaid link expired')
    .addHelpText(
      'after',
      '\nWith --wait the exit code is the final one: 0 live, 1 rejected or crawl_failed, 3 link expired unpaid.\n' +
        'Under --json, --wait prints only the final record.',
    )
    .action((rawUrl: string, options: SubmitOptions, command: Command) =>
      run(command, async (globals) => {
        const { url, notice } = readUrlArg(rawUrl);
        const categories = options.category ?? [];
        if (categories.length > MAX_CATEGORIES_PER_TOOL) {
          throw usageError(
            `At most ${MAX_CATEGORIES_PER_TOOL} categories (--category given ${categories.length} times).`,
          );
        }
        const session = await openKeyedSession(ctx, globals);
        if (notice) printLines(ctx.stderr, [notice]); // the words the API and MCP answer in `notices`
        // No plan unless one is given: the server then keeps the plan of a record that waits for payment.
        const request = {
          name: options.name,
          url,
          ...(options.email ? { email: options.email } : {}),
          ...(options.plan ? { plan: options.plan } : {}),
          ...(categories.length ? { categories } : {}),
          ...(options.mcpUrl !== undefined ? { mcp_url: options.mcpUrl } : {}),
        };
        const outcome = await submitWithRetries(session.client, request, {
          sleep: ctx.sleep,
          onRetry: (line) => printLines(ctx.stderr, [line]),
        });
        await remember(ctx, session, outcome, options.name, url);

        const showWords = !session.json;
        if (showWords) printLines(ctx.stdout, describeOutcome(ctx, outcome, options.name, session.baseUrl));
        if (outcome.kind === 'payment_required' && options.open) await openCheckout(ctx, outcome.body.checkout_url);

        if (options.wait) {
          const progress = createProgress(ctx.stderr, session.json, ctx.now);
          const result = await followSubmission(ctx, session.client, outcome.body.site_id, progress);
          if (session.json) printJson(ctx.stdout, result.site);
          else printLines(ctx.stdout, [finalLine(result.site)]);
          return result.exitCode;
        }
        if (session.json) printJson(ctx.stdout, outcome.body);
        return outcome.kind === 'queued' ? ExitCode.ok : ExitCode.paymentRequired;
      }),
    );
}

function describeOutcome(ctx: CliContext, outcome: SubmitOutcome, name: string, baseUrl: string): string[] {
  if (outcome.kind === 'queued') {
    const { site_id: siteId, quota } = outcome.body;
    return [`Queued ${name} (site_id ${siteId}). Quota: used ${quota.used_today} of ${quota.daily_limit} today.`];
  }
  const record = outcome.body;
  return [`${record.name} (site_id ${record.site_id}) waits for payment.`, ...paymentLines(record, ctx.now(), baseUrl)];
}

/** Keeps the site_id locally: `status <url>` needs it for unpaid submissions, which the list hides. */
async function remember(
  ctx: CliContext,
  session: KeyedSession,
  outcome: SubmitOutcome,
  name: string,
  url: string,
): Promise<void> {
  try {
    await session.store.update((config) =>
      rememberSubmission(config, { site_id: outcome.body.site_id, url, name, base_url: session.baseUrl }, ctx.now()),
    );
  } catch (error) {
    // The submission itself succeeded; only `status <url>` loses its local fallback.
    const why = error instanceof Error ? error.message : String(error);
    printLines(ctx.stderr, [`Warning: could not record the site_id locally (${why}).`]);
  }
}

/**
 * A browser that fails to start is not a failed submission: say so and let the user copy the link. A link the
 * opener refuses (not https, nor http on this machine: opener.ts) is not opened at all, and the words say so.
 */
async function openCheckout(ctx: CliContext, checkoutUrl: string): Promise<void> {
  try {
    await ctx.openUrl(checkoutUrl);
    printLines(ctx.stderr, ['Opening the checkout link in your browser…']);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    if (error instanceof LinkNotOpenedError)
      printLines(ctx.stderr, [`Not opening the checkout link: ${why}. Check it before you open it yourself.`]);
    else printLines(ctx.stderr, [`Could not open a browser (${why}); open the checkout link yourself.`]);
  }
}
