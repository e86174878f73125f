import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOpener, LinkNotOpenedError, openableUrl } from '../../../src/cli/opener';

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
    expect(await readFile(join(dir, 'args'), 'utf8')).toBe(
      '--new-tab|http://127.0.0.1:8787/checkout/cs_1?a=1&b=$(id)|',
    );
  });

  it('rejects when the command fails or does not exist', async () => {
    const { path } = await script('exit 3');
    await expect(createOpener({ TOOLDIR_OPENER: path })('http://127.0.0.1:1/')).rejects.toThrow(/exited with code 3/);
    await expect(createOpener({ TOOLDIR_OPENER: '/nonexistent/opener' })('http://127.0.0.1:1/')).rejects.toThrow(
      /ENOENT/,
    );
  });
});

describe('openableUrl', () => {
  it('keeps https anywhere and http on this machine, in their parsed form', () => {
    expect(openableUrl('https://checkout.stripe.com/c/pay/cs_1#fid=x')).toBe(
      'https://checkout.stripe.com/c/pay/cs_1#fid=x',
    );
    expect(openableUrl('HTTPS://Checkout.Example/a b')).toBe('https://checkout.example/a%20b');
    for (const local of [
      'http://127.0.0.1:8787/checkout/cs_1',
      'http://localhost/x',
      'http://[::1]:1/x',
      'http://tooldir.localhost/x',
    ]) {
      expect(openableUrl(local)).toBe(local);
    }
  });

  it('refuses every other scheme, http off this machine and credentials', () => {
    for (const link of [
      'file:///etc/passwd',
      'ms-msdt:/id',
      'search-ms:query=x',
      'intent://x',
      'javascript:alert(1)',
      'data:text/html,x',
      'ftp://a.example/',
      'http://checkout.example/',
      'http://127.0.0.1.evil.example/',
      'https://u:p@a.example/',
      'https://u@a.example/',
      '',
      'checkout.example/pay',
    ]) {
      expect(() => openableUrl(link), link).toThrow(LinkNotOpenedError);
    }
  });

  it('the opener refuses before running anything', async () => {
    const { path, dir } = await script(`touch "${'$'}(dirname "$0")/ran"`);
    await expect(createOpener({ TOOLDIR_OPENER: path })('file:///etc/passwd')).rejects.toThrow(LinkNotOpenedError);
    await expect(readFile(join(dir, 'ran'))).rejects.toThrow(/ENOENT/);
  });
});
