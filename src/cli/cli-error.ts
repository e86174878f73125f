// The one error type commands throw: a message for people, an exit code, and a JSON body for --json.
import { ExitCode, type ExitCodeValue } from './exit-codes';

/** Error body in the API's shape (section 2.7), also used for the CLI's own errors under --json. */
export interface ErrorBody {
  error: { code: string; message: string; site_id?: string };
}

export interface CliErrorDetails {
  /** Default 1 (error). */
  exitCode?: ExitCodeValue;
  /** Hints printed under the message (not part of the JSON body). */
  extraLines?: readonly string[];
  /** The existing submission's id on a 409. */
  siteId?: string;
  /** The API's HTTP status, when the error is an API answer. */
  httpStatus?: number;
}

/** A failure the CLI reports in words (never with a stack trace) and ends with `exitCode`. */
export class CliError extends Error {
  readonly exitCode: ExitCodeValue;
  readonly extraLines: readonly string[];
  readonly siteId?: string;
  readonly httpStatus?: number;

  constructor(
    readonly code: string,
    message: string,
    details: CliErrorDetails = {},
  ) {
    super(message);
    this.name = 'CliError';
    this.exitCode = details.exitCode ?? ExitCode.error;
    this.extraLines = details.extraLines ?? [];
    this.siteId = details.siteId;
    this.httpStatus = details.httpStatus;
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
  return new CliError('usage', message, { exitCode: ExitCode.usage });
}
