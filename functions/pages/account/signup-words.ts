// How a person gets an account, in the words every page uses (sign-in, /submit, /pricing): one place.

/**
 * SIGNUP=closed: no configuration names a contact, so the sentence says who opens accounts and how. Starts with
 * "New sign-ups are closed" on every page that shows it.
 */
export const SIGNUP_CLOSED_TEXT =
  'New sign-ups are closed: only the operator who runs this directory can open an account. Ask them to create ' +
  'one for your e-mail address (they do it with the operator API, POST /api/v1/admin/accounts); then sign in ' +
  'with that address.';

/** SIGNUP=open: what the sign-in page promises a new address. */
export const SIGNUP_OPEN_TEXT = 'A new address gets a new account: no password, just the code.';
