// "Refresh from the site" on a live tool's submission page (docs/health.md "Changes on the site"): when the last
// passing check saw a title, description or image other than the listing's (the record's site_changed), what the site
// now says beside what the listing shows, and a button whose POST runs the verb of POST /api/v1/sites/{id}/refresh.
import { html } from 'hono/html';
import { siteChangesOf, type SiteChanges } from '../../../src/health/refresh-from-site';
import { onceField } from './form-once';
import { csrfField, type Html } from './layout';
import type { Actor } from '../../../src/accounts/actor';
import type { Deps } from '../../../src/deps';
import type { SubmissionRecord } from '../../../src/submissions/record-schemas';

const shown = (value: string | null) => (value ? value : html`<span class="muted">none</span>`);

function comparison(changes: SiteChanges): Html {
  const rows: Array<[string, keyof SiteChanges['seen']]> = [
    ['Title', 'title'],
    ['Description', 'description'],
    ['Image', 'image'],
  ];
  return html`<table class="stack" id="site-changes-table"><caption class="muted small">What the last check read on your site, beside your listing</caption>
<thead><tr><th scope="col">Field</th><th scope="col">Your site now says</th><th scope="col">Your listing shows</th></tr></thead>
<tbody>${rows.map(
    ([label, key]) =>
      html`<tr${changes.seen[key] !== changes.listed[key] ? html` data-changed="true"` : ''}><th scope="row" class="word">${label}</th>
<td data-label="Your site now says">${shown(changes.seen[key])}</td>
<td data-label="Your listing shows">${shown(changes.listed[key])}</td></tr>`,
  )}</tbody></table>`;
}

/** A section of the submission page (submission-sections.ts); it reads only what it names, so no import circle. */
export async function siteChangesSection({
  record,
  deps,
  actor,
  csrfToken,
}: {
  record: SubmissionRecord;
  deps: Deps;
  actor: Actor;
  csrfToken: string;
}): Promise<Html | ''> {
  if (record.status !== 'live' || !('site_changed' in record) || !record.site_changed) return '';
  const changes = await siteChangesOf(deps, actor, record.site_id);
  if (!changes) return '';
  const action = changes.descriptionChanged
    ? html`<p class="muted small">The button files your site's description as an edit for review, as "Suggest an edit" does; the
public page keeps its text until an editor approves.</p>
<form method="post" action="/account/submissions/${record.site_id}/refresh">${csrfField(csrfToken)}${onceField()}
<button type="submit" class="primary" id="refresh-from-site">Refresh from the site</button></form>`
    : html`<p class="muted small" id="refresh-nothing">Only the title or image differs: an edit carries a name and a description,
so change the name below if you want it to follow the site.</p>`;
  return html`<section class="panel" id="site-changes" aria-labelledby="site-changes-title"><h2 id="site-changes-title">Your site has changed</h2>
${comparison(changes)}
${action}</section>`;
}
