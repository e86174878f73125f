// What happens to the money, and how long review takes, as /pricing, /submit and the local checkout state it: one
// view over the refund rule in force (REFUND_ON_REJECTION) and the usual review time of the last 30 days.
import { html } from 'hono/html';
import { refundRuleText } from '../../src/submissions/money-words';
import { reviewTimeText, type ReviewTime } from '../../src/submissions/review-time';

export function moneyRulesPanel(refundOnRejection: boolean, reviewTime: ReviewTime, headingLevel: 2 | 3 = 2) {
  const heading = html`<span id="money-rules-title">If your tool is rejected, and how long review takes</span>`;
  return html`<section class="panel" id="money-rules" aria-labelledby="money-rules-title">
${headingLevel === 2 ? html`<h2>${heading}</h2>` : html`<h3>${heading}</h3>`}
<p id="refund-rule" data-refund="${refundOnRejection ? 'on' : 'off'}">${refundRuleText(refundOnRejection)}</p>
<p id="review-time">${reviewTimeText(reviewTime)}</p>
</section>`;
}
