import type { Deps } from '../deps';
import { foldMailDomain } from './mail-domain';

/**
 * Whether an address is at a disposable-mail domain (the list: src/adapters/disposable-domains/). A subdomain
 * of a listed domain counts too (`x.mailinator.com`), so only the list decides, never a guess. The domain is
 * compared as mail reads it (./mail-domain.ts: full-width letters, ideographic full stops and the trailing dot
 * folded), so `ｍａｉｌｉｎａｔｏｒ。com.` is mailinator.com. When the list cannot be read, nothing is refused and the
 * failure is logged: a broken list must not stop every sign-in (docs/account.md "Disposable addresses").
 */
export async function isDisposableAddress(
  deps: Pick<Deps, 'disposableDomains' | 'log'>,
  email: string,
): Promise<boolean> {
  const typed = emailDomain(email);
  const labels = (foldMailDomain(typed) ?? typed.toLowerCase().replace(/\.$/, '')).split('.');
  try {
    for (let i = 0; i <= labels.length - 2; i++) {
      if (await deps.disposableDomains.has(labels.slice(i).join('.'))) return true;
    }
    return false;
  } catch (error) {
    deps.log.error('disposable-domain list unavailable: no address refused', { err: String(error) });
    return false;
  }
}

/** The domain part of an address, as the refusal names it. */
export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1);
