import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOpener } from '../../../src/cli/opener';

async function script(body: string): Promise<{ path: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'tooldir-opener-unit-'));
  const path = join(dir, 'open.sh');
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return { path, dir };
}

describe('createOpener with TOOLDIR_OPENER', () => {
  it('runs the command with its own arguments and the link last, without a shell', async () => {
    const { path, dir } = await script(`printf '%s|' "$@" > "${'$'}(dirname "$0")/args"`);
    await createOpener({ TOOLDIR_OPENER: `${path} --new-tab` })('http://127.0.0.1:8787/checkout/cs_1?a=1&b=$(id)');
    expect(await readFile(join(dir, 'args'), 'utf8')).toBe('--new-tab|http://127.0.0.1:8787/checkout/cs_1?a=1&b=$(id)|');
  });

  it('rejects when the command fails or does not exist', async () => {
    const { path } = await script('exit 3');
    await expect(createOpener({ TOOLDIR_OPENER: path })('http://127.0.0.1:1/')).rejects.toThrow(/exited with code 3/);
    await expect(createOpener({ TOOLDIR_OPENER: '/nonexistent/opener' })('http://127.0.0.1:1/')).rejects.toThrow(/ENOENT/);
  });
});
