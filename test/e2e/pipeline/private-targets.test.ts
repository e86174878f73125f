// With CRAWL_ALLOW_PRIVATE off (the default), the pipeline never touches a loopback target: the fixture sees
// zero requests and the site ends in crawl_failed with the refusal kept for operators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlPage, startFixtureSite, type FixtureSite } from '../../helpers/fixture-site';
import { createPipelineApp, networkViolations, type PipelineApp } from '../../helpers/pipeline-harness';

let t: PipelineApp;
let fixture: FixtureSite;
beforeAll(async () => {
  t = await createPipelineApp({ env: { CRAWL_ALLOW_PRIVATE: 'false', CRAWL_MAX_ATTEMPTS: '2' } });
  fixture = await startFixtureSite({ '/': htmlPage('<title>Should never be read</title>') });
});
afterAll(async () => {
  await t.close();
  await fixture.close();
  expect(networkViolations).toEqual([]);
});

describe('private targets with CRAWL_ALLOW_PRIVATE=false', () => {
  it('refuses a loopback URL and a name resolving to loopback without a single request', async () => {
    const m = await t.member('memberFeature');
    const literal = await t.submit(m.key, { name: 'Loopback Literal', url: `${fixture.origin}/` });
    const named = await t.submit(m.key, { name: 'Loopback Name', url: `http://rebind.localhost:${fixture.port}/` });
    await t.settle();
    for (const id of [literal, named]) {
      const site = await t.site(id);
      expect(site.status).toBe('crawl_failed');
      expect(site.crawl_error_kind).toBe('blocked_address');
      expect(site.crawl_error).toMatch(/loopback/);
    }
    expect(fixture.hits).toEqual([]);
  });
});
