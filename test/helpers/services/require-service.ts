// Decides whether a suite that needs a real server runs, is skipped with one line, or fails (CI).
import { describe, it } from 'vitest';

/** A `describe` replacement returned by requireService. */
export type ServiceDescribe = (name: string, body: () => void) => void;

/** True when missing services must fail instead of skip (`.ci/run` sets REQUIRE_SERVICES=1). */
export function servicesRequired(envVar = 'REQUIRE_SERVICES'): boolean {
  return process.env[envVar] === '1';
}

/**
 * Gate a suite on a real server being installed.
 * Available → plain `describe`. Missing → one console line and a skipped suite, or, with
 * REQUIRE_SERVICES=1 (or the given envVar), a suite holding one failing test.
 * @example
 * const describePg = requireService('PostgreSQL', findPostgresBinaries() !== null);
 * describePg('neon-http stand-in', () => { ... });
 */
export function requireService(name: string, available: boolean, envVar = 'REQUIRE_SERVICES'): ServiceDescribe {
  if (available) return (suiteName, body) => describe(suiteName, body);
  if (servicesRequired(envVar)) {
    return (suiteName) =>
      describe(suiteName, () => {
        it(`needs ${name}`, () => {
          throw new Error(`${name} is not installed but ${envVar}=1 requires it (see .ci/run)`);
        });
      });
  }
  console.warn(`skipped: ${name} not installed (set ${envVar}=1 to fail instead)`);
  return (suiteName, body) => describe.skip(suiteName, body);
}
