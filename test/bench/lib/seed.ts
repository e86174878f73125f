// Seeds a running server through its own operator API: accounts, keys and submissions.
export interface SeededAccount {
  accountId: string;
  key: string;
  keyId: string;
  email: string;
}

async function post(url: string, token: string, body?: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Creates an account of `tier` with one API key. */
export async function seedAccount(
  base: string,
  adminToken: string,
  tier: 'none' | 'member' | 'memberFeature',
): Promise<SeededAccount> {
  const email = `bench-${crypto.randomUUID().slice(0, 12)}@example.com`;
  const account = await post(`${base}/api/v1/admin/accounts`, adminToken, { email, tier });
  if (account.status !== 201) throw new Error(`seed account: ${account.status} ${await account.text()}`);
  const { account_id } = (await account.json()) as { account_id: string };
  const keyRes = await post(`${base}/api/v1/admin/accounts/${account_id}/keys`, adminToken);
  if (keyRes.status !== 201) throw new Error(`seed key: ${keyRes.status} ${await keyRes.text()}`);
  const { key, key_id } = (await keyRes.json()) as { key: string; key_id: string };
  return { accountId: account_id, key, keyId: key_id, email };
}

let sequence = 0;

/** A submit body no other request of this process has used (distinct URL and name). */
export function distinctSubmit(tag: string) {
  const n = `${process.pid}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;
  return { url: `https://${tag}-${n}.example/`, name: `${tag} tool ${n}`, plan: 'basic' };
}

/** Submits `count` distinct tools; returns the ids answered (201 or 402). */
export async function seedSubmissions(base: string, key: string, count: number, tag = 'seed'): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await post(`${base}/api/v1/submit-site`, key, distinctSubmit(tag));
    if (res.status !== 201 && res.status !== 402) throw new Error(`seed submit: ${res.status} ${await res.text()}`);
    ids.push(((await res.json()) as { site_id: string }).site_id);
  }
  return ids;
}
