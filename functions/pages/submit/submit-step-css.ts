// The /submit button's labels, one per plan, picked by the checked radio (functions/pages/submit/submit-form.ts).
// Its own file: the stylesheet imports it, and the form's view imports the page layout.
import { planKinds } from '../../../src/submissions/plan-words';

/**
 * The button names the step for the plan checked, without script: one label per plan, and the stylesheet shows the
 * one whose radio is checked (`:has`). A browser without `:has` keeps the label of the plan checked when the page
 * was made (`.step-now`), which is right until the choice changes.
 */
export const SUBMIT_STEP_CSS = `.step-for{display:none}
@supports selector(:has(*)){form:has(input[name=plan]:checked) .step-now{display:none}
${planKinds.map((plan) => `form:has(#plan-${plan}:checked) .step-for-${plan}{display:inline}`).join('\n')}}`;
