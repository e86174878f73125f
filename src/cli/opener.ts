// Opening a checkout link: the `open` package, or the command in TOOLDIR_OPENER (like $BROWSER).
import { spawn } from 'node:child_process';

/**
 * Returns the function that opens a link. With TOOLDIR_OPENER set, that command runs with the link as
 * its last argument (no shell); otherwise the system browser is started through `open`.
 */
export function createOpener(env: Readonly<Record<string, string | undefined>>): (url: string) => Promise<void> {
  const command = env.TOOLDIR_OPENER?.trim();
  if (command) return (url) => runOpener(command, url);
  return async (url) => {
    const { default: open } = await import('open');
    await open(url);
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
