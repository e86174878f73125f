/** Stores are the last line: a caller that skipped the name check gets an error, never a path or key of its making. */
export function invalidMediaName(name: string): Error {
  return new Error(`not a media name: ${JSON.stringify(name.slice(0, 100))}`);
}
