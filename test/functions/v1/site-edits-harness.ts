// Shared set-up of the edit tests (docs/pipeline.md "Edits"): an app, a fresh member per test, and the calls.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { ADMIN_TOKEN, createTestApp, uniqueName, type TestApp } from '../../helpers/test-app';
import { seedOwnedTool } from '../../helpers/owned-tools';

export interface EditHarness {
  t: TestApp;
  /** A fresh account per test: edits count against the account's submit bucket (10 a minute). */
  member: Awaited<ReturnType<TestApp['member']>>;
}

export function useEditHarness(): EditHarness {
  const h = {} as EditHarness;
  beforeAll(async () => {
    h.t = await createTestApp({ env: { AUTO_APPROVE: 'false' } });
  });
  beforeEach(async () => {
    h.member = await h.t.member('member');
  });
  afterAll(() => h.t.close());
  return h;
}

export function editCalls(h: EditHarness) {
  return {
    edit: (siteId: string, json: unknown, key = h.member.key) =>
      h.t.request(`/api/v1/sites/${siteId}`, { method: 'PATCH', key, json }),
    review: (editId: string, json: unknown, key: string | null = ADMIN_TOKEN) =>
      h.t.request(`/api/v1/admin/edits/${editId}/review`, { method: 'POST', key: key ?? undefined, json }),
    record: async (siteId: string, key = h.member.key) =>
      (await h.t.request(`/api/v1/sites/${siteId}`, { key })).json(),
    publicTool: async (slug: string) => (await h.t.request(`/api/v1/tools/${slug}`)).json(),
    publicPage: async (slug: string) => (await h.t.request(`/tools/${slug}`)).text(),
    ownTool: (name = uniqueName('Edit Tool'), status?: 'live' | 'pending_review' | 'rejected' | 'crawl_failed') =>
      seedOwnedTool(h.t.deps.db, h.member.accountId, { name, status }),
  };
}
