import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { queryRows, type Db } from '../../src/db/client';

/**
 * In a browser test: the sign-in code mailed for the reference the page shows (the mail outbox row; the mail
 * is sent off the response path, so this polls).
 */
export async function mailedCodeFor(db: Db, email: string, page: Page): Promise<string> {
  const reference = /reference ([A-Z]{4})/.exec((await page.textContent('main')) ?? '')![1]!;
  const mailed = async () => {
    const mails = await queryRows<{ text: string }>(
      db,
      sql`SELECT text FROM mail_outbox WHERE "to" = ${email} ORDER BY id`,
    );
    return mails.find((m) => m.text.includes(`reference ${reference}`))?.text ?? '';
  };
  await expect.poll(mailed).toMatch(/\b\d{6}\b/);
  return /\b(\d{6})\b/.exec(await mailed())![1]!;
}
