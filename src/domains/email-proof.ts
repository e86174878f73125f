// The e-mail proof: a code sent to an address at exactly the domain, typed back once within 30 minutes, 5 tries.
import { generateSignInCode, normalizeEmail, signInSecret } from '../accounts/sign-in';
import type { Config } from '../config';
import { sha256Hex } from '../crypto';
import { ServiceError } from '../errors';
import { isHostUnder } from '../domain-names';

/**
 * The address the code goes to, as mail reads it (UTS #46 domain, lower-case local part), when it is at exactly
 * `domain`. An address at a subdomain (`a@mail.example.com`) or at a look-alike (`a@example.com.evil.net`,
 * `a@examp1e.com`) is refused: only the domain's own mail proves it.
 */
export function proofAddress(typed: string, domain: string): string {
  const email = normalizeEmail(typed);
  if (email === undefined)
    throw new ServiceError('invalid_request', 'email must be a valid e-mail address', { field: 'email' });
  const at = email.slice(email.lastIndexOf('@') + 1);
  if (at === domain) return email;
  if (isHostUnder(at, domain)) {
    throw new ServiceError('invalid_request', `The address must be at ${domain} itself, not at a subdomain (${at}).`, {
      field: 'email',
    });
  }
  throw new ServiceError('invalid_request', `The address must be at ${domain}; ${at} is another domain.`, {
    field: 'email',
  });
}

export const newEmailCode = generateSignInCode;

/** The stored form of a code: bound to the proof row and the address, keyed by the service's secret. */
export const hashEmailCode = (config: Config, proofId: string, email: string, code: string) =>
  sha256Hex(`${signInSecret(config)}\ndomain-proof\n${proofId}\n${email}\n${code.trim()}`);

/** The mail with the code (the local outbox keeps it, like sign-in codes). */
export function emailCodeMessage(to: string, domain: string, code: string, minutes: number) {
  return {
    to,
    subject: `Your code to verify ${domain}: ${code}`,
    text:
      `Someone signed in to tooldir asked to prove that they control ${domain} by this address.\n\n` +
      `Code: ${code}\n\nIt works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing changes.\n`,
  };
}
