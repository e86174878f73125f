import { describe, expect, it } from 'vitest';
import { isDisposableAddress } from '../../../src/accounts/disposable-mail';
import { createDisposableDomains } from '../../../src/adapters/disposable-domains/list';
import { createPackageDisposableDomains } from '../../../functions/node/disposable-domains';
import type { Logger } from '../../../src/log';

const silent = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;

describe('isDisposableAddress', () => {
  const list = createDisposableDomains(async () => ['mailinator.com', 'Yopmail.COM ']);
  const deps = { disposableDomains: list, log: silent };

  it('refuses a listed domain and its subdomains, nothing else', async () => {
    expect(await isDisposableAddress(deps, 'a@mailinator.com')).toBe(true);
    expect(await isDisposableAddress(deps, 'a@inbox.mailinator.com')).toBe(true);
    expect(await isDisposableAddress(deps, 'a@mailinator.com.')).toBe(true);
    // The domain as mail reads it (issue 27): full-width letters and ideographic full stops are folded first.
    expect(await isDisposableAddress(deps, 'a@ｍａｉｌｉｎａｔｏｒ.com')).toBe(true);
    expect(await isDisposableAddress(deps, 'a@inbox.mailinator\u3002com')).toBe(true);
    expect(await isDisposableAddress(deps, 'a@yopmail.com')).toBe(true);
    expect(await isDisposableAddress(deps, 'a@notmailinator.com')).toBe(false);
    expect(await isDisposableAddress(deps, 'a@mailinator.co')).toBe(false);
    expect(await isDisposableAddress(deps, 'a@com')).toBe(false);
    expect(await isDisposableAddress(deps, 'mailinator.com@example.com')).toBe(false);
  });

  it('loads the list once; a list that cannot be read refuses nothing, is logged, and is read again next time', async () => {
    let loads = 0;
    let fail = true;
    const errors: string[] = [];
    const flaky = createDisposableDomains(async () => {
      loads++;
      if (fail) throw new Error('asset missing');
      return ['mailinator.com'];
    });
    const log = { ...silent, error: (message: string) => errors.push(message) } as unknown as Logger;
    expect(await isDisposableAddress({ disposableDomains: flaky, log }, 'a@mailinator.com')).toBe(false);
    expect(errors).toEqual(['disposable-domain list unavailable: no address refused']);
    fail = false;
    expect(await isDisposableAddress({ disposableDomains: flaky, log }, 'a@mailinator.com')).toBe(true);
    expect(await isDisposableAddress({ disposableDomains: flaky, log }, 'b@example.com')).toBe(false);
    expect(loads).toBe(2);
    const broken = createDisposableDomains(async () => ({ not: 'a list' }));
    expect(await isDisposableAddress({ disposableDomains: broken, log }, 'a@mailinator.com')).toBe(false);
  });

  it('the installed package list knows the well-known services and not the big mail providers', async () => {
    const real = { disposableDomains: createPackageDisposableDomains(), log: silent };
    for (const domain of ['mailinator.com', '10minutemail.com', 'guerrillamail.com', 'yopmail.com']) {
      expect(await isDisposableAddress(real, `someone@${domain}`)).toBe(true);
    }
    for (const domain of ['gmail.com', 'outlook.com', 'example.com', 'proton.me', 'fastmail.com']) {
      expect(await isDisposableAddress(real, `someone@${domain}`)).toBe(false);
    }
  });
});
