import { describe, expect, it } from 'vitest';
import { withReservedNames } from '../../../src/crawler/reserved-names';

/** The wrapped resolver must never be asked about a special-use name: asking fails the test. */
const asked: string[] = [];
const resolver = withReservedNames(async (host) => {
  asked.push(host);
  return ['93.184.215.14'];
});

describe('withReservedNames', () => {
  it('answers localhost names with loopback locally', async () => {
    for (const name of ['localhost', 'LOCALHOST.', 'app.localhost'])
      expect(await resolver(name)).toEqual(['127.0.0.1']);
  });
  it('refuses .test, .example, .invalid and example.com/.net/.org without a lookup', async () => {
    for (const name of [
      'tooldir.test',
      'e2e-tool.example',
      'x.invalid',
      'example.com',
      'www.example.org',
      'a.example.net.',
    ]) {
      await expect(resolver(name), name).rejects.toThrow(/reserved name/);
    }
    expect(asked).toEqual([]);
  });
  it('passes every other name to the real resolver', async () => {
    expect(await resolver('tool.dev')).toEqual(['93.184.215.14']);
    expect(await resolver('notexample.com')).toEqual(['93.184.215.14']);
    expect(asked).toEqual(['tool.dev', 'notexample.com']);
  });
});
