import { html } from 'hono/html';
import type { OpenDispute } from '../../src/claims/disputes';
import type { Html } from '../pages/layout';
import { csrfField } from '../middleware/csrf';

// The operator's list of claim disputes on /admin (docs/ownership.md "Disputes"): both accounts prove the domain;
// each has the operator's two decisions.

/** The operator's two decisions (POST /admin/disputes/{claim_id}/decision); the name tells the buttons apart. */
const decisionForm = (
  d: OpenDispute,
  csrf: string,
) => html`<form method="post" action="/admin/disputes/${d.claim_id}/decision">
${csrfField(csrf)}
<button type="submit" name="decision" value="award" aria-describedby="dispute-${d.claim_id}">Give the listing to the claimant</button>
<button type="submit" name="decision" value="keep" aria-describedby="dispute-${d.claim_id}">Keep it with the current owner</button>
</form>`;

function disputeView(d: OpenDispute, csrf: string): Html {
  return html`<li>
<h3 id="dispute-${d.claim_id}">${d.name} <span class="muted">(${d.status}, claimed ${d.at})</span></h3>
<p>${d.url}</p>
<p><strong>Domain:</strong> ${d.domain}<br><strong>Owner (holds a proof):</strong> ${d.owner_email}<br><strong>Claimed by (holds a proof):</strong> ${d.claimant_email}</p>
<p class="muted">Site id <code>${d.site_id}</code>, dispute id <code>${d.claim_id}</code></p>
${decisionForm(d, csrf)}
</li>`;
}

export function disputesView(disputes: OpenDispute[], csrf: string): Html {
  return html`<section aria-labelledby="claim-disputes">
<h2 id="claim-disputes">Claim disputes (${disputes.length})</h2>
${
  disputes.length
    ? html`<p class="muted">Both accounts have proved the listing's domain: contact them and decide who keeps it. Giving it to the claimant moves it as a claim does (both are mailed); keeping it closes the dispute and mails the claimant.</p>
<ul class="tools">${disputes.map((d) => disputeView(d, csrf))}</ul>`
    : html`<p class="muted">No open disputes.</p>`
}
</section>`;
}
