// The connection-time guard: even if the pre-flight check were bypassed (or DNS answered differently
// since), the pinned fetch connects only to addresses the policy accepts. Real sockets go to loopback only.
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheckedLookup, createPinnedFetch } from '../../../src/crawler/pinned-fetch';
import { BlockedAddressError } from '../../../src/crawler/index';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { PUBLIC_IPV4, tableResolver } from './network-doubles';

let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite({ '/': htmlPage('<title>pinned</title>') });
});
afterAll(async () => {
  await site.close();
});
beforeEach(() => {
  site.hits.length = 0;
});

function causeOf(error: unknown): unknown {
  return error instanceof Error ? error.cause : undefined;
}

describe('createPinnedFetch', () => {
  it('resolves through the injected resolver, not the system', async () => {
    // "localhost" is the only name used with real sockets: even a broken lookup stays on loopback.
    const { resolver, asked } = tableResolver({ localhost: ['127.0.0.1'] });
    const response = await createPinnedFetch({ resolver, allowPrivate: true })(`http://localhost:${site.port}/`);
    expect(await response.text()).toBe('<title>pinned</title>');
    expect(asked).toEqual(['localhost']);
    expect(site.hits).toHaveLength(1);
  });

  it('refuses to connect when the name resolves to a refused address (allowPrivate off)', async () => {
    const { resolver } = tableResolver({ localhost: ['127.0.0.1'] });
    const error = await createPinnedFetch({ resolver, allowPrivate: false })(`http://localhost:${site.port}/`).catch(
      (caught: unknown) => caught,
    );
    expect(causeOf(error)).toBeInstanceOf(BlockedAddressError);
    expect(site.hits).toEqual([]);
  });

  it('refuses a loopback IP literal (allowPrivate off), which no lookup would see', async () => {
    const { resolver, asked } = tableResolver({});
    const error = await createPinnedFetch({ resolver, allowPrivate: false })(`${site.origin}/`).catch(
      (caught: unknown) => caught,
    );
    expect(causeOf(error)).toBeInstanceOf(BlockedAddressError);
    expect(asked).toEqual([]);
    expect(site.hits).toEqual([]);
  });
});

describe('createCheckedLookup (no sockets)', () => {
  type Outcome = { error: Error | null; address: string | LookupAddress[]; family?: number };
  const lookupWith = (answers: string[], allowPrivate: boolean, options: { all?: boolean; family?: number } = {}) =>
    new Promise<Outcome>((resolve) => {
      const { resolver } = tableResolver({ 'host.test': answers });
      createCheckedLookup({ resolver, allowPrivate })('host.test', options, (error, address, family) =>
        resolve({ error, address, family }),
      );
    });

  it('hands over every checked address when asked for all', async () => {
    const outcome = await lookupWith([PUBLIC_IPV4, '2606:4700::1111'], false, { all: true });
    expect(outcome).toEqual({
      error: null,
      address: [
        { address: PUBLIC_IPV4, family: 4 },
        { address: '2606:4700::1111', family: 6 },
      ],
      family: undefined,
    });
  });

  it('hands over the first address of the wanted family otherwise', async () => {
    expect(await lookupWith([PUBLIC_IPV4, '2606:4700::1111'], false, { family: 6 })).toEqual({
      error: null,
      address: '2606:4700::1111',
      family: 6,
    });
  });

  it.each([
    [[PUBLIC_IPV4, '169.254.169.254'], true],
    [[PUBLIC_IPV4, '10.0.0.1'], false],
    [['::ffff:127.0.0.1'], false],
    [['fd00:ec2::254'], true],
  ])('refuses %j (allowPrivate %s) with a BlockedAddressError', async (answers, allowPrivate) => {
    const outcome = await lookupWith(answers, allowPrivate, { all: true });
    expect(outcome.error).toBeInstanceOf(BlockedAddressError);
  });

  it('passes resolver failures on', async () => {
    const { resolver } = tableResolver({});
    const error = await new Promise<Error | null>((resolve) => {
      createCheckedLookup({ resolver, allowPrivate: false })('unknown.test', {}, (caught) => resolve(caught));
    });
    expect(error?.message).toContain('unknown.test');
  });
});
