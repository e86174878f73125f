// Outside local mode SITE_ORIGIN is required and is the only origin the server calls its own (src/origin.ts),
// so a bench server on PostgreSQL gets its port chosen first and SITE_ORIGIN pointing at it, like an operator would.
import { findFreePort } from '../../helpers/services/free-port';

/** PORT, HOST and SITE_ORIGIN for a server on a free loopback port. */
export async function ownOriginEnv(): Promise<{ PORT: string; HOST: string; SITE_ORIGIN: string }> {
  const port = await findFreePort();
  return { PORT: String(port), HOST: '127.0.0.1', SITE_ORIGIN: `http://127.0.0.1:${port}` };
}
