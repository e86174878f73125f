// What `npm start` prints once it answers: where the website is (its pages), where sign-in codes appear when no
// mail leaves the machine, where the data lives, and the operator's first steps. Printed, not logged: for a person.
import { resolve } from 'node:path';
import type { Config } from '../../src/config';
import { undeliveredCodeWhere } from '../../src/accounts/sign-in-code-words';
import { membershipTiers } from '../../src/catalog/plans';

/** The website's pages a newcomer starts from, in the order of a first visit. */
export const BANNER_PAGES = [
  { path: '/', what: 'the directory' },
  { path: '/submit', what: 'submit a tool' },
  { path: '/account', what: 'sign in: API keys, membership, your submissions' },
] as const;

export function bannerText(s: { url: string; config: Config; mailKind: 'outbox' | 'http' }): string {
  const where = s.config.databaseUrl
    ? 'PostgreSQL at DATABASE_URL'
    : `PGlite in ${resolve(s.config.dataDir, 'pglite')}`;
  const tokenHint = s.config.local
    ? `cat ${resolve(s.config.dataDir, 'admin-token')}`
    : 'the ADMIN_TOKEN you configured';
  const width = Math.max(...BANNER_PAGES.map((p) => `${s.url}${p.path}`.length));
  const pages = BANNER_PAGES.map(
    (p, i) => `  ${i === 0 ? 'website:        ' : '                '} ${`${s.url}${p.path}`.padEnd(width)}  ${p.what}`,
  );
  const codes = undeliveredCodeWhere(s.config, s.mailKind);
  return `
tooldir is running at ${s.url}
${pages.join('\n')}
${codes ? `  sign-in codes:   ${codes}\n` : ''}  data:            ${where}
  operator token:  ${tokenHint}
  API reference:   ${s.url}/api/v1/docs

Create an account and a first API key:
  TOKEN=$(${s.config.local ? tokenHint : 'echo $ADMIN_TOKEN'})
  curl -s -X POST ${s.url}/api/v1/admin/accounts -H "authorization: Bearer $TOKEN" \\
       -H 'content-type: application/json' -d '{"email":"you@example.com","tier":"${membershipTiers[0]}"}'
  curl -s -X POST ${s.url}/api/v1/admin/accounts/<account_id>/keys -H "authorization: Bearer $TOKEN"
`;
}
