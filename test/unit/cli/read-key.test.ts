import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { promptHidden, readKeyFromPipe } from '../../../src/cli/read-key';
import { Captured } from './fake-context';

function terminal(): PassThrough & { rawModes: boolean[]; setRawMode: (mode: boolean) => void; isTTY: boolean } {
  const input = new PassThrough() as PassThrough & {
    rawModes: boolean[];
    setRawMode: (mode: boolean) => void;
    isTTY: boolean;
  };
  input.rawModes = [];
  input.isTTY = true;
  input.setRawMode = (mode) => input.rawModes.push(mode);
  return input;
}

describe('promptHidden', () => {
  it('reads in raw mode without echoing, handles backspace and paste markers', async () => {
    const input = terminal();
    const output = new Captured(true);
    const answer = promptHidden(input, output, 'Key: ');
    input.write('td_abx');
    input.write('\u007f');
    input.write('\u001b[200~c\u001b[201~\r');
    await expect(answer).resolves.toBe('td_abc');
    expect(input.rawModes).toEqual([true, false]);
    expect(output.text).toBe('Key: \n');
  });

  it('switches echo off before the prompt shows, so keys typed at once are never echoed', async () => {
    const input = terminal();
    const output = new Captured(true);
    let rawWhenPrompted: boolean | undefined;
    output.write = (chunk: string) => {
      rawWhenPrompted ??= input.rawModes.at(-1);
      output.text += chunk;
      return true;
    };
    const answer = promptHidden(input, output, 'Key: ');
    input.write('k\r');
    await answer;
    expect(rawWhenPrompted).toBe(true);
  });

  it('cancels on Ctrl-C and leaves raw mode', async () => {
    const input = terminal();
    const answer = promptHidden(input, new Captured(true), 'Key: ');
    input.write('td_\u0003');
    await expect(answer).rejects.toThrow(/cancelled/);
    expect(input.rawModes).toEqual([true, false]);
  });
});

describe('readKeyFromPipe', () => {
  it('takes the first non-empty line', async () => {
    const input = new PassThrough();
    input.end('\n  td_piped  \nsecond\n');
    await expect(readKeyFromPipe(input)).resolves.toBe('td_piped');
  });
});
