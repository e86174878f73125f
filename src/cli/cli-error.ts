// The one error type commands throw: a message for people, an exit code, and a JSON body for --json.
import { ExitCode, type ExitCodeValue } from './exit-codes';

/** Error body in the API's shape (section 2.7), also used for the CLI's own errors under --json. */
export interface ErrorBody {
  error: { code: string; message: string; site_id?: string };
}

/** A failure the CLI reports in words (never with a stack trace) and ends with `exitCode`. */
export class CliError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: ExitCodeValue = ExitCode.error,
    readonly extraLines: readonly string[] = [],
    readonly siteId?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }

  /** The error as the API would have written it; printed on stdout under --json. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.siteId) error.site_id = this.siteId;
    return { error };
  }
}

/** A bad argument detected by the CLI itself (exit 2). */
export function usageError(message: string): CliError {
  return new CliError('usage', message, ExitCode.usage);
}
