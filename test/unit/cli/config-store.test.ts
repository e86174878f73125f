import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigStore,
  configFilePath,
  findRemembered,
  rememberSubmission,
  type CliConfig,
} from '../../../src/cli/config-store';

describe('configFilePath', () => {
  it('uses XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/x/conf', HOME: '/home/u' })).toBe('/x/conf/tooldir/config.json');
    expect(configFilePath({ HOME: '/home/u' })).toBe('/home/u/.config/tooldir/config.json');
    // The XDG spec says a relative XDG_CONFIG_HOME is invalid and must be ignored.
    expect(configFilePath({ XDG_CONFIG_HOME: 'rel', HOME: '/home/u' })).toBe('/home/u/.config/tooldir/config.json');
  });
});

describe('ConfigStore', () => {
  it('writes the file with mode 0600 inside a 0700 directory and reads it back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tooldir-store-'));
    const store = new ConfigStore(join(dir, 'tooldir', 'config.json'));
    expect(await store.read()).toEqual({ submissions: [] });
    await store.write({ api_key: 'td_secret', base_url: 'http://127.0.0.1:9', submissions: [] });
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'tooldir'))).mode & 0o777).toBe(0o700);
    expect(await store.read()).toEqual({ api_key: 'td_secret', base_url: 'http://127.0.0.1:9', submissions: [] });
  });

  it('tightens a file that was readable by others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tooldir-store-'));
    const path = join(dir, 'config.json');
    await writeFile(path, '{}', { mode: 0o644 });
    await new ConfigStore(path).write({ api_key: 'k', submissions: [] });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ api_key: 'k' });
  });

  it('reports a broken file in words', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tooldir-store-'));
    const path = join(dir, 'config.json');
    await writeFile(path, '{nope');
    await expect(new ConfigStore(path).read()).rejects.toThrow(/not valid JSON/);
  });
});

describe('remembered submissions', () => {
  it('finds site_ids by canonical URL and service, newest first', () => {
    const now = new Date('2026-11-21T22:00:00Z');
    let config: CliConfig = { submissions: [] };
    const base = 'http://127.0.0.1:8787';
    config = rememberSubmission(config, { site_id: 'a', url: 'https://acme.example/', name: 'A', base_url: base }, now);
    config = rememberSubmission(
      config,
      { site_id: 'b', url: 'https://www.acme.example', name: 'A', base_url: base },
      now,
    );
    config = rememberSubmission(
      config,
      { site_id: 'c', url: 'https://acme.example', name: 'A', base_url: 'http://other' },
      now,
    );
    config = rememberSubmission(config, { site_id: 'a', url: 'https://acme.example', name: 'A', base_url: base }, now);
    expect(findRemembered(config, 'acme.example', base).map((item) => item.site_id)).toEqual([]);
    expect(findRemembered(config, 'https://ACME.example/#x', base).map((item) => item.site_id)).toEqual(['a', 'b']);
    expect(findRemembered(config, 'http://acme.example/index.html', base).map((item) => item.site_id)).toEqual([
      'a',
      'b',
    ]);
  });

  it('finds entries written under an older canonical form (the key is computed again from the URL)', () => {
    const base = 'http://127.0.0.1:8787';
    const config: CliConfig = {
      submissions: [
        {
          site_id: 'old',
          url: 'http://acme.example/app/',
          url_key: 'http://acme.example/app',
          name: 'A',
          base_url: base,
          recorded_at: '2026-01-01T00:00:00.000Z',
        },
      ],
    };
    expect(findRemembered(config, 'https://acme.example/%61pp', base).map((item) => item.site_id)).toEqual(['old']);
  });
});
