import type { KeyIdentity } from './key-cache';

/** Who is calling a verb: the account behind a verified API key (or a signed-in session). */
export type Actor = KeyIdentity;
