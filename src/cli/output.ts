// How results reach the terminal: words and tables for people, one JSON document for scripts.
import type { TextOut } from './context';
import { describeStatus as describeSubmissionStatus } from '../submissions/progress-words';

// The words themselves live with the pages' (src/submissions/progress-words.ts): one place for every surface.
export { describeReason } from '../submissions/progress-words';

/** Prints one JSON document (the only thing on stdout under --json). */
export function printJson(out: TextOut, value: unknown): void {
  out.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(out: TextOut, lines: readonly string[]): void {
  for (const line of lines) out.write(`${line}\n`);
}

/** A submission status in words ("queued for crawling"), with the CLI's own next step for a failed crawl. */
export function describeStatus(status: string): string {
  const words = describeSubmissionStatus(status);
  return status === 'crawl_failed' ? `${words} (fix the site, then \`tooldir retry\`)` : words;
}

/**
 * The one line Ctrl-C prints. On a terminal it first clears the line it lands on (the spinner's, and the `^C` the
 * terminal echoed there), so nothing half-drawn is left above the prompt.
 */
export function interruptedLine(terminal: boolean): string {
  const clear = terminal ? '\r\u001b[2K' : '';
  return `${clear}Interrupted (Ctrl-C). Anything already sent stays sent: \`tooldir status\` or \`tooldir list\` show where it is.`;
}

/** Whether an ISO time lies in the past. */
export function hasExpired(expiresAt: string, now: Date): boolean {
  const time = Date.parse(expiresAt);
  return Number.isFinite(time) && time <= now.getTime();
}

/** Cuts a cell to `width` characters with an ellipsis, so one long URL does not wreck the table. */
export function truncate(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Lays out rows as left-aligned columns separated by two spaces, with a header row. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const render = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return [render(headers.map((header) => header.toUpperCase())), ...rows.map(render)].join('\n');
}
