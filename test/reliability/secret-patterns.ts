// Key formats that must never be committed, and the line between a real-looking secret and a placeholder.

export const SECRET_FORMATS: { name: string; pattern: RegExp }[] = [
  { name: 'tooldir API key', pattern: /tdk_[0-9A-Za-z]{22}/g },
  { name: 'Stripe secret/restricted key', pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/g },
  { name: 'Stripe webhook secret', pattern: /whsec_[0-9A-Za-z+/=]{24,}/g },
  { name: 'private key', pattern: /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY-----/g },
  // QStash tokens are base64 of {"UserID":…}.
  { name: 'QStash token', pattern: /\beyJVc2VySUQi[0-9A-Za-z+/=_-]{20,}/g },
];

/**
 * A match with little variety (tdk_AAAA…, sk_test_xxxx…) is a placeholder; a real key is random, so
 * it uses many distinct characters. Private-key headers are always findings.
 */
export function looksReal(match: string): boolean {
  if (match.startsWith('-----BEGIN')) return true;
  const body = match.replace(/^(tdk_|(?:sk|rk)_(?:live|test)_|whsec_)/, '');
  return new Set(body).size >= 12;
}

/** Every real-looking secret in `text`. */
export function findSecrets(text: string): { name: string; match: string }[] {
  const found: { name: string; match: string }[] = [];
  for (const { name, pattern } of SECRET_FORMATS) {
    for (const m of text.matchAll(pattern)) if (looksReal(m[0])) found.push({ name, match: m[0] });
  }
  return found;
}
