// No secret or key is committed: every tracked file (git ls-files) is scanned for real-looking key formats.
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { randomToken } from '../../src/crypto';
import { findSecrets } from './secret-patterns';

const root = resolve(import.meta.dirname, '../..');

function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 2 ** 20,
  });
  return out.toString('utf8').split('\0').filter(Boolean);
}

describe('committed files', () => {
  it('the scanner finds real-looking keys and lets placeholders pass', () => {
    // Built at run time so that no real-looking key is ever in the tree.
    const realKey = `tdk_${randomToken(22)}`;
    const stripe = `sk_${'live'}_${randomToken(24)}`;
    const pem = ['-----BEGIN', 'PRIVATE KEY-----'].join(' ');
    expect(findSecrets(`key=${realKey}`).map((f) => f.name)).toEqual(['tooldir API key']);
    expect(findSecrets(stripe)).toHaveLength(1);
    expect(findSecrets(`${pem}\nMIIE`)).toHaveLength(1);
    expect(
      findSecrets('tdk_AAAAAAAAAAAAAAAAAAAAAA sk_test_xxxxxxxxxxxxxxxxxxxxxxxx whsec_test_secret_0123456789'),
    ).toEqual([]);
  });

  it('contain no secret or key (git ls-files, including untracked files not ignored)', () => {
    const findings: string[] = [];
    const files = trackedFiles();
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const path = join(root, file);
      let size: number;
      try {
        size = statSync(path).size;
      } catch {
        continue; // deleted in the work tree but still in the index
      }
      if (size > 5 * 2 ** 20) continue;
      const text = readFileSync(path, 'utf8');
      if (text.includes('\0')) continue; // binary
      for (const f of findSecrets(text)) findings.push(`${file}: ${f.name} ${f.match.slice(0, 12)}…`);
    }
    expect(findings).toEqual([]);
  });
});
