// Where sign-in returns to (`next`): the one rule for every page that leads through sign-in (/submit, /pricing's
// buttons, the OAuth consent page, the membership page). Only a path on this site, so `next` can never become
// an open redirect.
import { ServiceError } from '../../src/errors';

/** Long enough for an OAuth consent page's query (client metadata URLs, PKCE, state), short enough to bound. */
export const MAX_NEXT_LENGTH = 6000;

const BASE = 'http://next.invalid';

/**
 * The same-origin path (with its query) `value` names, normalised (percent-encoded, so a Location header can
 * always carry it), or undefined when `value` is absent or not a path of ours: it must start with a single `/`,
 * with no `//` or `/\` after it, no backslash anywhere and no scheme (`https:`, `javascript:`), and resolve to
 * this origin. A control character (CR, LF, NUL, tab, …) is a malformed request: invalid_request (400), never a
 * header injection or a 500. The fragment is dropped (the server never sees one anyway).
 *
 * @example safeNextPath('/submit?plan=featured') // '/submit?plan=featured'
 * @example safeNextPath('//evil.example/')       // undefined
 */
export function safeNextPath(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  // URL parsing silently drops tabs and newlines ("/\t/evil.example" would become "//evil.example"): refuse first.
  if (/[\u0000-\u001f\u007f]/.test(value))
    throw new ServiceError(
      'invalid_request',
      'The return address (next) must not contain line breaks or other control characters.',
    );
  if (value.length > MAX_NEXT_LENGTH || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return undefined;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  const path = `${url.pathname}${url.search}`;
  // A path that normalises to "//…" (e.g. "/./evil") would be protocol-relative in a Location header.
  return path.startsWith('//') ? undefined : path;
}

/** `/account/sign-in?next=…` for a page that needs a signed-in person (the path is checked like any next). */
export function signInPath(next: string): string {
  const safe = safeNextPath(next);
  return safe ? `/account/sign-in?next=${encodeURIComponent(safe)}` : '/account/sign-in';
}
