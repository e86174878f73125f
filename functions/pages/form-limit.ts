// The form limit of the pages mounted on the app itself (the editor's forms, the statistics opt-out), whose errors
// are not rendered by the account area's error page: a body over FORM_LIMIT_BYTES is a 413 page in words, answered
// before the body is read.
import { html } from 'hono/html';
import { FORM_LIMIT_TEXT } from '../../src/body-limit';
import { formLimit } from '../middleware/body-limit';
import { renderPage } from './layout';

export const pageFormLimit = formLimit((c) => {
  const message = `The form is larger than ${FORM_LIMIT_TEXT}.`;
  c.header('Cache-Control', 'no-store');
  return renderPage(c, {
    title: 'Request refused',
    description: message,
    status: 413,
    noindex: true,
    body: () => html`<h1>Request refused</h1><p class="error" role="alert">${message}</p>`,
  });
});
