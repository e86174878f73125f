// `npm start` as a newcomer runs it: the banner names the website's pages and, in local mode, where sign-in codes
// are printed; and stopping it with a signal stops the server, whoever gets the signal: the whole process group
// (Ctrl-C in a terminal), npm alone (`kill <npm's pid>`, which npm and its shell do not pass on), or npm killed
// outright. No process of the server may be left behind: each run's DATA_DIR is unique, so /proc tells.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startChildServer, type ChildServer } from '../helpers/child-server';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'tooldir-stop-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** Pids of live processes started with this DATA_DIR (npm, its shell, the server). */
function processesOf(dataDir: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // a zombie waits for its parent's wait(): it runs nothing
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DATA_DIR=${dataDir}`))
        found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`still not true after ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answers = (server: ChildServer) =>
  fetch(`${server.url}/llms.txt`).then(
    (r) => r.ok,
    () => false,
  );

describe('npm start, as a newcomer meets it', () => {
  it('names the pages of the website and where sign-in codes are printed, as the code page does', async () => {
    const dataDir = freshDir();
    const server = await startChildServer({ dataDir, viaNpm: true, env: { LOG_LEVEL: 'info' } });
    try {
      const out = server.output();
      for (const path of ['/ ', '/submit ', '/account ']) expect(out).toContain(`${server.url}${path}`);
      expect(out).toMatch(
        /sign-in codes: +No e-mail leaves this machine: each sign-in code is printed in the terminal where npm start runs/,
      );
      // The code page, reached as a person does: the e-mail form, then the code form.
      const jar = new Map<string, string>();
      const remember = (res: Response) =>
        res.headers.getSetCookie().forEach((c) => jar.set(c.split('=')[0]!, c.split(';')[0]!));
      const cookie = () => [...jar.values()].join('; ');
      const form = await fetch(`${server.url}/account/sign-in`);
      remember(form);
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const codePage = await fetch(`${server.url}/account/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookie(), origin: server.url },
        body: new URLSearchParams({ _csrf: csrf, email: 'newcomer@example.com' }),
      });
      const page = await codePage.text();
      expect(codePage.status, page).toBe(200);
      expect(page).toContain('each sign-in code is printed in the terminal where npm start runs');
      await until('the code is printed in the terminal', () =>
        /mail \(outbox\).*Your tooldir sign-in code: \d{6}/.test(server.output()),
      );
    } finally {
      await server.stop();
    }
  }, 180_000);

  it.each([
    ['SIGINT to the process group (Ctrl-C in a terminal)', 'group', 'SIGINT'],
    ['SIGTERM to npm alone', 'npm', 'SIGTERM'],
    ['SIGKILL to npm alone', 'npm', 'SIGKILL'],
  ] as const)(
    'stops the server and every process of it on %s',
    async (_, target, signal) => {
      const dataDir = freshDir();
      const server = await startChildServer({ dataDir, viaNpm: true });
      try {
        expect(await answers(server)).toBe(true);
        expect(processesOf(dataDir).length).toBeGreaterThanOrEqual(2); // npm and the server (and maybe a shell)
        if (target === 'group') process.kill(-server.process.pid!, signal);
        else process.kill(server.process.pid!, signal);
        await until('the port is closed', async () => !(await answers(server)));
        await until(`no process with DATA_DIR=${dataDir} is left`, () => processesOf(dataDir).length === 0);
      } finally {
        for (const pid of processesOf(dataDir)) process.kill(pid, 'SIGKILL'); // a failed run leaves nothing either
      }
    },
    180_000,
  );
});
