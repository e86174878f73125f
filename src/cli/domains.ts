// tooldir domains, tooldir verify <domain> [--dns | --http | --email <address> | --code <code>], tooldir claim <url>:
// proving the domain of your tool and taking over its listing (docs/ownership.md).
import { Option, type Command } from 'commander';
import type { DomainRecord } from './api-types';
import type { CliContext } from './context';
import { ExitCode } from './exit-codes';
import { printJson, printLines } from './output';
import type { RunAction } from './run-action';
import { openKeyedSession } from './session';
import { siteLines } from './site-view';
import { usageError } from './cli-error';
import { normalizeUrlArg } from './url-input';
import { formatDate } from '../display-time';

/** A domain in lines: its status, and while pending the three proofs with the values to copy. */
export function domainLines(d: DomainRecord): string[] {
  if (d.status === 'verified') {
    const until = d.expires_at ? `until ${formatDate(d.expires_at)}` : 're-checked monthly';
    const failing = d.failing_since
      ? [`  The last re-check failed: put the record or file back before ${formatDate(d.lapses_at)}.`]
      : [];
    return [`${d.domain}  verified by ${d.method} on ${formatDate(d.verified_at)} (${until})`, ...failing];
  }
  return [
    `${d.domain}  pending: prove it one of three ways, then run \`tooldir verify ${d.domain} --dns\` (or --http, --email)`,
    `  DNS:    a TXT record at ${d.methods.dns.name} with the value ${d.methods.dns.value}`,
    `  HTTP:   a file at ${d.methods.http.url} whose body is ${d.methods.http.body}`,
    `  E-mail: a code sent to any address at ${d.methods.email.address_domain}`,
    ...(d.email_code
      ? [
          `  A code was sent to ${d.email_code.sent_to}: \`tooldir verify ${d.domain} --code <code>\` (${d.email_code.tries_left} tries left)`,
        ]
      : []),
  ];
}

export function registerDomainCommands(program: Command, ctx: CliContext, run: RunAction): void {
  program
    .command('domains')
    .description('list your domains: verified ones, and how to prove the pending ones')
    .action((_options: object, command: Command) =>
      run(command, async (globals) => {
        const session = await openKeyedSession(ctx, globals);
        const { domains } = await session.client.listDomains();
        if (session.json) printJson(ctx.stdout, { domains });
        else
          printLines(
            ctx.stdout,
            domains.length ? domains.flatMap(domainLines) : ['No domains yet: `tooldir verify <domain>` adds one.'],
          );
        return ExitCode.ok;
      }),
    );

  program
    .command('verify')
    .description('prove a domain (it is added first when needed); without a method, show how')
    .argument('<domain>', 'the domain of your tool (a subdomain adds its registrable domain)')
    .addOption(new Option('--dns', 'check the TXT record').conflicts(['http', 'email', 'code']))
    .addOption(new Option('--http', 'check the file under /.well-known/').conflicts(['email', 'code']))
    .addOption(new Option('--email <address>', 'send a code to this address at the domain').conflicts('code'))
    .option('--code <code>', 'the code from the mail')
    .option('--port <port>', 'with --http, locally (CRAWL_ALLOW_PRIVATE=true): the port of your <name>.localhost site')
    .action(
      (
        domainArg: string,
        options: { dns?: boolean; http?: boolean; email?: string; code?: string; port?: string },
        command: Command,
      ) =>
        run(command, async (globals) => {
          const port = options.port === undefined ? undefined : Number(options.port);
          if (port !== undefined && (!options.http || !Number.isInteger(port) || port < 1 || port > 65535)) {
            throw usageError('--port takes a port number (1 to 65535) and goes with --http.');
          }
          const session = await openKeyedSession(ctx, globals);
          const added = await session.client.addDomain(domainArg.trim());
          const body = options.dns
            ? ({ method: 'dns' } as const)
            : options.http
              ? ({ method: 'http', ...(port !== undefined && { port }) } as const)
              : options.email !== undefined
                ? ({ method: 'email', email: options.email } as const)
                : options.code !== undefined
                  ? ({ method: 'email', code: options.code } as const)
                  : undefined;
          if (!body) {
            if (session.json) printJson(ctx.stdout, added);
            else printLines(ctx.stdout, domainLines(added));
            return ExitCode.ok;
          }
          const { record, codeSent } = await session.client.verifyDomain(added.domain, body);
          if (session.json) printJson(ctx.stdout, record);
          else if (codeSent)
            printLines(ctx.stdout, [
              `A code is on its way to ${record.email_code?.sent_to ?? options.email}.`,
              `Then: tooldir verify ${record.domain} --code <code>`,
            ]);
          else
            printLines(ctx.stdout, [
              `Verified: ${record.domain}. Your listings on it show "Verified maker".`,
              ...domainLines(record),
            ]);
          return ExitCode.ok;
        }),
    );

  program
    .command('claim')
    .description('take over the listing of a URL on a domain you verified, submitted by another account')
    .argument('<url>', "the listing's URL")
    .action((target: string, _options: object, command: Command) =>
      run(command, async (globals) => {
        const url = normalizeUrlArg(target);
        const session = await openKeyedSession(ctx, globals);
        const site = await session.client.claimSite(url);
        if (session.json) printJson(ctx.stdout, site);
        else printLines(ctx.stdout, ['Claimed: the listing is now in your account.', ...siteLines(site, ctx.now())]);
        return ExitCode.ok;
      }),
    );
}
