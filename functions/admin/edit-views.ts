import { html } from 'hono/html';
import type { PendingEditItem } from '../../src/pipeline/decide-edit';
import type { Html } from '../pages/layout';
import { csrfField } from '../middleware/csrf';

/** One pending edit: the tool's current text next to the proposal, with approve and reject buttons. */
function editView(edit: PendingEditItem, csrf: string): Html {
  return html`<li>
<h3>${edit.current_name} <span class="muted">(edit filed ${edit.submitted_at}${edit.slug ? html`, <a href="/tools/${edit.slug}">public page</a>` : ''})</span></h3>
<table>
<tr><th></th><th>Current</th><th>Proposed</th></tr>
<tr><th>Name</th><td>${edit.current_name}</td><td>${edit.name ?? html`<span class="muted">unchanged</span>`}</td></tr>
<tr><th>Description</th><td>${edit.current_description ?? '—'}</td><td>${edit.description ?? html`<span class="muted">unchanged</span>`}</td></tr>
</table>
<form method="post" action="/admin/edits/${edit.edit_id}/review">
${csrfField(csrf)}
<label>Reason (optional, shown to the submitter) <input type="text" name="reason" maxlength="1000"></label>
<button type="submit" name="decision" value="approve">Approve edit</button>
<button type="submit" name="decision" value="reject">Reject edit</button>
</form>
</li>`;
}

/** Edits of live tools waiting for an editor (docs/pipeline.md "Edits"). */
export function editsView(edits: PendingEditItem[], csrf: string): Html {
  return html`<h2>Edits waiting for review (${edits.length})</h2>
${edits.length ? html`<ul class="tools">${edits.map((e) => editView(e, csrf))}</ul>` : html`<p class="muted">No edits to review.</p>`}`;
}
