/** What a verified API key resolves to. */
export interface KeyIdentity {
  keyId: string;
  accountId: string;
  email: string;
}

/**
 * Keeps verified keys for up to `ttlMs` so warm reads cost no key lookup. A revoke in the same process
 * evicts at once; other isolates see it within the TTL (at most 60 s).
 */
export class KeyCache {
  private entries = new Map<string, { identity: KeyIdentity; until: number }>();
  private touched = new Map<string, number>();
  constructor(
    private ttlMs: number,
    private now: () => number = () => Date.now(),
  ) {}

  get(hash: string): KeyIdentity | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.until <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.identity;
  }

  set(hash: string, identity: KeyIdentity): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= 10_000) this.entries.clear();
    this.entries.set(hash, { identity, until: this.now() + this.ttlMs });
  }

  /** True at most once a minute per key: when last_used_at is worth writing again. */
  shouldTouch(keyId: string): boolean {
    const t = this.now();
    if ((this.touched.get(keyId) ?? 0) > t - 60_000) return false;
    if (this.touched.size >= 10_000) this.touched.clear();
    this.touched.set(keyId, t);
    return true;
  }

  evictKey(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.identity.keyId === keyId) this.entries.delete(hash);
  }
}
