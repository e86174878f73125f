import { html } from 'hono/html';
import type { OpenDispute } from '../../src/claims/disputes';
import type { Html } from '../pages/layout';

// The operator's list of claim disputes on /admin (docs/ownership.md "Claims"): both accounts prove the domain.

function disputeView(d: OpenDispute): Html {
  return html`<li>
<h3>${d.name} <span class="muted">(${d.status}, claimed ${d.at})</span></h3>
<p>${d.url}</p>
<p><strong>Domain:</strong> ${d.domain}<br><strong>Owner (holds a proof):</strong> ${d.owner_email}<br><strong>Claimed by (holds a proof):</strong> ${d.claimant_email}</p>
<p class="muted">Site id <code>${d.site_id}</code></p>
</li>`;
}

export function disputesView(disputes: OpenDispute[]): Html {
  return html`<section aria-labelledby="claim-disputes">
<h2 id="claim-disputes">Claim disputes (${disputes.length})</h2>
${
  disputes.length
    ? html`<p class="muted">Both accounts have proved the listing's domain: contact them and decide who keeps it.</p>
<ul class="tools">${disputes.map(disputeView)}</ul>`
    : html`<p class="muted">No open disputes.</p>`
}
</section>`;
}
