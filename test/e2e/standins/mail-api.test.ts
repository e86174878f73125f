// Self-test of the mail API stand-in, driven by the app's own HTTP mailer (src/adapters/mail/http.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHttpMailer } from '../../../src/adapters/mail/http';
import { type MailStandIn, startMailStandIn } from '../../helpers/standins/mail-api';

let mail: MailStandIn;
beforeAll(async () => {
  mail = await startMailStandIn();
});
afterAll(() => mail.close());

it('records what the HTTP mailer sends, with the sender and the bearer key', async () => {
  const mailer = createHttpMailer({
    apiUrl: mail.env.MAIL_API_URL,
    apiKey: mail.env.MAIL_API_KEY,
    from: 'tooldir <noreply@tooldir.test>',
  });
  await mailer.send({ to: 'owner@example.com', subject: 'Your code: 123456', text: 'Code 123456' });
  expect(mail.messages).toEqual([
    {
      from: 'tooldir <noreply@tooldir.test>',
      to: 'owner@example.com',
      subject: 'Your code: 123456',
      text: 'Code 123456',
    },
  ]);
});

it("passes extra headers on as the API's headers field (List-Unsubscribe of the health mails)", async () => {
  const mailer = createHttpMailer({ apiUrl: mail.sendUrl, apiKey: mail.key, from: 'noreply@tooldir.test' });
  const headers = {
    'List-Unsubscribe': '<https://tooldir.test/health-mails/x>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
  await mailer.send({ to: 'owner@example.com', subject: 'Down', text: 'It is down', headers });
  expect(mail.messages.at(-1)).toMatchObject({ to: 'owner@example.com', headers });
});

it('refuses a wrong key, so the mailer throws instead of pretending it sent', async () => {
  const before = mail.messages.length;
  const mailer = createHttpMailer({ apiUrl: mail.sendUrl, apiKey: 'wrong-key', from: 'x@tooldir.test' });
  await expect(mailer.send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow('mail API answered 401');
  expect(mail.messages).toHaveLength(before);
});
