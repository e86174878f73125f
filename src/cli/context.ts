// Everything a command touches outside itself, injected so tests can run the CLI in-process.
import type { FetchFunction } from './api-client';

/** A writable text stream (process.stdout or a test buffer). */
export interface TextOut {
  write(text: string): unknown;
  isTTY?: boolean;
  /** Terminal width, when it is a terminal. */
  columns?: number;
}

/** The input stream a key is read from (process.stdin or a test stream). */
export type KeyInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

/** The world as the CLI sees it. */
export interface CliContext {
  env: Readonly<Record<string, string | undefined>>;
  stdout: TextOut;
  stderr: TextOut;
  stdin: KeyInput;
  fetch: FetchFunction;
  /** Opens a link in the user's browser. */
  openUrl: (url: string) => Promise<void>;
  sleep: (ms: number) => Promise<void>;
  now: () => Date;
  /** Time between two reads of `submit --wait`. */
  pollIntervalMs: number;
  version: string;
}
