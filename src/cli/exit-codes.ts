// Exit codes of the tooldir CLI: the contract scripts rely on, documented in --help and docs/cli.md.

/** Process exit codes; stable across releases. */
export const ExitCode = {
  ok: 0,
  error: 1,
  usage: 2,
  paymentRequired: 3,
  alreadySubmitted: 4,
  rateLimited: 5,
  /** Ctrl-C (128 + SIGINT), as shells report a command ended by it. */
  interrupted: 130,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** Maps an API answer's HTTP status (and error code, where one status has several meanings) to the exit code. */
export function exitCodeForHttpStatus(status: number, code?: string): ExitCodeValue {
  if (status >= 200 && status < 300) return ExitCode.ok;
  // The API rejecting the arguments (bad name, bad URL) is the same kind of mistake as a bad flag.
  if (status === 400) return ExitCode.usage;
  if (status === 402) return ExitCode.paymentRequired;
  // 409 is also a retry of a submission that is not crawl_failed (invalid_state): an ordinary error.
  if (status === 409)
    return code === undefined || code === 'already_submitted' ? ExitCode.alreadySubmitted : ExitCode.error;
  if (status === 429) return ExitCode.rateLimited;
  return ExitCode.error;
}

/** The help epilogue shared by every command. */
export const exitCodesHelp = `Exit codes:
  0  ok
  1  error (API error, network error, invalid key, not found)
  2  usage (bad arguments, including ones the API rejects as invalid)
  3  payment required (the submission waits for payment at the checkout link)
  4  already submitted (the URL or name exists)
  5  rate limited (retry after the time shown)
  130  interrupted (Ctrl-C); whatever was already sent stays sent

Environment:
  TOOLDIR_API_KEY    API key; overrides the key stored by \`tooldir login\`
  TOOLDIR_BASE_URL   service address (default http://127.0.0.1:8787); --base-url wins
  TOOLDIR_OPENER     command that opens checkout links instead of the system browser
  XDG_CONFIG_HOME    config lives in $XDG_CONFIG_HOME/tooldir/config.json (default ~/.config)`;
