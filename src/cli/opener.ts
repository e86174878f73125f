// Opening a checkout link: the `open` package, or the command in TOOLDIR_OPENER (like $BROWSER).
import { spawn } from 'node:child_process';
import { isLoopbackHostname } from '../origin';

/** A link the CLI will not hand to a browser (the message says why, without repeating the link). */
export class LinkNotOpenedError extends Error {
  override name = 'LinkNotOpenedError';
}

/**
 * The link as it may be opened: https anywhere, http only on this machine (the local checkout), parsed and
 * re-serialised. The link comes from the server's answer, and the system opener starts whatever the scheme maps
 * to (`file:`, `ms-msdt:`, `search-ms:`, `javascript:` in a browser…), so a wrong or hostile server must not
 * choose what runs here. Throws LinkNotOpenedError otherwise.
 */
export function openableUrl(link: string): string {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new LinkNotOpenedError('it is not an absolute URL');
  }
  const loopbackHttp = url.protocol === 'http:' && isLoopbackHostname(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    throw new LinkNotOpenedError('only https addresses (or http on this machine) are opened in a browser');
  }
  if (url.username || url.password) throw new LinkNotOpenedError('it carries a user name or password');
  return url.href;
}

/**
 * Returns the function that opens a link. With TOOLDIR_OPENER set, that command runs with the link as
 * its last argument (no shell); otherwise the system browser is started through `open`. Either way only
 * what openableUrl accepts is opened.
 */
export function createOpener(env: Readonly<Record<string, string | undefined>>): (url: string) => Promise<void> {
  const command = env.TOOLDIR_OPENER?.trim();
  if (command) return async (url) => runOpener(command, openableUrl(url));
  return async (url) => {
    const safe = openableUrl(url);
    const { default: open } = await import('open');
    await open(safe);
  };
}

function runOpener(command: string, url: string): Promise<void> {
  const [program, ...args] = command.split(/\s+/);
  return new Promise((resolve, reject) => {
    const child = spawn(program ?? command, [...args, url], { stdio: 'ignore' });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${program} exited with code ${code}`))));
  });
}
