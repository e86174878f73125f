import type { Deps } from '../deps';

interface Notice {
  to: string | null;
  name: string;
  url: string;
}

/**
 * Tells the submitter what became of the submission. A mail failure is logged, never thrown: the
 * transition already happened and must not be retried because of the mailer.
 */
async function send(deps: Deps, to: string | null, subject: string, text: string): Promise<void> {
  if (!to) return;
  try {
    await deps.mail.send({ to, subject, text });
  } catch (error) {
    deps.log.error('notification mail failed', { to, subject, err: String(error) });
  }
}

/** "Your tool is live" with the public page's address. */
export function notifyPublished(deps: Deps, notice: Notice & { liveUrl: string }): Promise<void> {
  return send(
    deps,
    notice.to,
    `${notice.name} is live on tooldir`,
    `Good news: your submission "${notice.name}" (${notice.url}) has been published.\n\nIts page: ${notice.liveUrl}\n`,
  );
}

/** Rejection or takedown, with the editor's reason when one was given. */
export function notifyRejected(
  deps: Deps,
  notice: Notice & { reason: string | null; wasLive: boolean },
): Promise<void> {
  const what = notice.wasLive ? 'has been taken down from the directory' : 'was not accepted for the directory';
  const reason = notice.reason ? `\n\nReason: ${notice.reason}` : '';
  return send(
    deps,
    notice.to,
    `Your submission "${notice.name}" ${notice.wasLive ? 'was taken down' : 'was not accepted'}`,
    `Your submission "${notice.name}" (${notice.url}) ${what}.${reason}\n`,
  );
}
