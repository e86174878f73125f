// Every id the service hands out (sites, accounts, keys) is a UUID. One test of "could this be one of our ids",
// run before a lookup so that a malformed id is a plain 404 and never reaches the database as a cast error.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` has the form of a UUID (any version: ids are only ever ours). */
export const isUuid = (value: string): boolean => UUID.test(value);
