// The `submit --wait` progress display: a live spinner line on a terminal, plain lines elsewhere.
import type { TextOut } from './context';
import { truncate } from './output';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Shows what a waiting command is waiting for. */
export interface Progress {
  /** Called on every poll with the current state in words. */
  show(text: string): void;
  /** Advances the spinner. */
  tick(): void;
  /** Clears the live line before the final output. */
  stop(): void;
  readonly animated: boolean;
}

/**
 * A spinner with the time waited when `out` is a terminal; otherwise one line per change of state;
 * silent when `quiet`.
 */
export function createProgress(out: TextOut, quiet: boolean, now: () => Date): Progress {
  if (quiet) return { show: () => {}, tick: () => {}, stop: () => {}, animated: false };
  if (!out.isTTY) {
    let last = '';
    return {
      // One line per change of state, so a log or CI output is not flooded with the same line.
      show(text) {
        if (text !== last) out.write(`${text}\n`);
        last = text;
      },
      tick: () => {},
      stop: () => {},
      animated: false,
    };
  }
  let frame = 0;
  let current = '';
  const started = now().getTime();
  const draw = (): void => {
    const seconds = Math.round((now().getTime() - started) / 1000);
    // A line wider than the terminal wraps, and \r would then redraw only its last part.
    const line = truncate(`${frames[frame % frames.length]} ${current} · ${seconds}s`, (out.columns ?? 80) - 1);
    out.write(`\r\u001b[2K${line}`);
  };
  return {
    show(text) {
      current = text;
      draw();
    },
    tick() {
      frame += 1;
      draw();
    },
    stop() {
      out.write('\r\u001b[2K');
    },
    animated: true,
  };
}
