// The `submit --wait` progress display: a live spinner line on a terminal, plain lines elsewhere.
import type { TextOut } from './context';

const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Shows what a waiting command is waiting for. */
export interface Progress {
  /** Called on every poll with the current state in words (`detail` is shown only on the live line). */
  show(text: string, detail?: string): void;
  /** Advances the spinner. */
  tick(): void;
  /** Clears the live line before the final output. */
  stop(): void;
  readonly animated: boolean;
}

/** A spinner when `out` is a terminal; otherwise one line per change of state; silent when `quiet`. */
export function createProgress(out: TextOut, quiet: boolean): Progress {
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
  const draw = (): void => {
    out.write(`\r\u001b[2K${frames[frame % frames.length]} ${current}`);
  };
  return {
    show(text, detail) {
      current = detail ? `${text} · ${detail}` : text;
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
