// The DNS proof: a TXT record `tooldir-verification=<token>` at `_tooldir.<domain>` or at the domain itself.
import type { TxtResolver } from '../adapters/resolver/resolver';
import { DNS_RECORD_PREFIX, dnsRecordName } from './proof-locations';
import type { ProofOutcome, ProofSubject } from './proof-outcome';

/** Names people put the record at by mistake (a DNS console that appends the zone, a www. habit), checked to say so. */
const misplacedNames = (domain: string) => [
  `tooldir.${domain}`,
  `_tooldir.${domain}.${domain}`,
  `_tooldir.www.${domain}`,
  `www.${domain}`,
];

/**
 * Asks for the TXT records at the two names and says whether one holds this domain's value; when none does, why in
 * words: no record, a record with another value (this account's token of another domain is named as such), or the
 * right value found at another name. Records split over several strings arrive joined (src/adapters/resolver/txt.ts).
 */
export async function checkDnsProof(
  txt: TxtResolver,
  subject: ProofSubject,
  signal: AbortSignal,
): Promise<ProofOutcome> {
  const wanted = `${DNS_RECORD_PREFIX}${subject.token}`;
  const names = [dnsRecordName(subject.domain), subject.domain];
  const answers = await Promise.allSettled(names.map((name) => txt(name, signal)));
  const found: Array<{ name: string; value: string }> = [];
  answers.forEach((answer, i) => {
    if (answer.status === 'fulfilled')
      for (const value of answer.value) found.push({ name: names[i]!, value: value.trim() });
  });
  if (found.some((record) => record.value === wanted)) return { ok: true };
  if (answers.every((answer) => answer.status === 'rejected')) {
    return { ok: false, reason: `DNS could not be asked about ${names.join(' or ')}; try again in a few minutes` };
  }
  const ours = found.filter((record) => record.value.startsWith(DNS_RECORD_PREFIX));
  if (ours.length > 0) {
    const { name, value } = ours[0]!;
    const token = value.slice(DNS_RECORD_PREFIX.length).trim();
    const otherDomain = subject.otherTokens.get(token);
    if (otherDomain)
      return {
        ok: false,
        reason: `wrong value: the TXT record at ${name} holds your token for ${otherDomain}, not the one for ${subject.domain} (${wanted})`,
      };
    return {
      ok: false,
      reason: `wrong value: the TXT record at ${name} is "${value.slice(0, 120)}", expected "${wanted}"`,
    };
  }
  const elsewhere = await Promise.allSettled(
    misplacedNames(subject.domain).map(async (name) =>
      (await txt(name, signal)).some((v) => v.trim() === wanted) ? name : undefined,
    ),
  );
  const misplaced = elsewhere.find((r) => r.status === 'fulfilled' && r.value !== undefined) as
    | PromiseFulfilledResult<string>
    | undefined;
  if (misplaced)
    return {
      ok: false,
      reason: `found on another name: the record is at ${misplaced.value}; it must be at ${names[0]} or ${names[1]}`,
    };
  return {
    ok: false,
    reason: `record not found: no TXT record "${wanted}" at ${names[0]} or ${names[1]} (a new record can take a few minutes to appear)`,
  };
}
