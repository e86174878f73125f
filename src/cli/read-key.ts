// Reading an API key without it landing in shell history or on screen: piped stdin or a hidden prompt.
import { CliError } from './cli-error';
import { ExitCode } from './exit-codes';
import type { KeyInput, TextOut } from './context';

const escapeSequence = /\u001b\[[0-9;]*[~A-Za-z]/g;

/** Reads all of a piped stdin and returns its first non-empty line. */
export async function readKeyFromPipe(input: KeyInput): Promise<string> {
  let text = '';
  input.setEncoding('utf8');
  for await (const chunk of input) text += String(chunk);
  return (
    text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ''
  );
}

/**
 * Asks for a secret on a terminal in raw mode: nothing is echoed, Backspace edits, Enter ends,
 * Ctrl-C and Ctrl-D on an empty line cancel.
 */
export function promptHidden(input: KeyInput, output: TextOut, prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (): void => {
      input.removeListener('data', onData);
      input.removeListener('end', onEnd);
      input.setRawMode?.(false);
      input.pause();
      output.write('\n');
    };
    const cancel = (): void => {
      finish();
      reject(new CliError('cancelled', 'Login cancelled; nothing was stored.', { exitCode: ExitCode.interrupted }));
    };
    const onEnd = (): void => {
      finish();
      resolve(value);
    };
    const onData = (chunk: string | Buffer): void => {
      // Bracketed-paste markers and arrow keys are not part of a key.
      for (const char of String(chunk).replace(escapeSequence, '')) {
        if (char === '\r' || char === '\n') return onEnd();
        if (char === '\u0003' || (char === '\u0004' && value === '')) return cancel();
        if (char === '\u0004') return onEnd();
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    // Raw mode before the prompt: whatever is typed once the prompt shows must never be echoed.
    input.setRawMode?.(true);
    output.write(prompt);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
  });
}
