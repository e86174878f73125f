// The consequences of one check (docs/health.md "Consequences"), decided from the site's last record: the new record,
// whether the listing is hidden or restored, and what the owner is told. Pure, so every rule is tested alone.
import {
  HEALTH_TELL_OWNER_AFTER_FAILING_DAYS,
  type HealthNotice,
  type HealthReasonKind,
  type HealthState,
} from '../catalog/health-states';
import type { CheckOutcome, SeenPage } from './check-outcome';

/** The site's health before the check (the claim reads it). */
export interface HealthBefore {
  state: HealthState;
  lastOkAt: Date | null;
  failingSince: Date | null;
  notifiedState: HealthNotice;
  /** UTC day (YYYY-MM-DD) of the last notice / the last hide. */
  notifiedOn: string | null;
  hiddenOn: string | null;
  hidden: boolean;
  etag: string | null;
  lastModified: string | null;
  seen: SeenPage;
}

export interface HealthAfter {
  state: HealthState;
  reasonKind: HealthReasonKind | null;
  httpStatus: number | null;
  movedTo: string | null;
  lastOkAt: Date | null;
  failingSince: Date | null;
  etag: string | null;
  lastModified: string | null;
  seen: SeenPage;
  hidden: boolean;
  hiddenOn: string | null;
  /** The notice to send now (mail and webhook), if any; notifiedState/notifiedOn below already include it. */
  notice: HealthNotice | null;
  notifiedState: HealthNotice;
  notifiedOn: string | null;
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
const dayNumber = (at: Date) => Math.floor(at.getTime() / 86_400_000);

/** UTC days from the first failing check to `now`, both included (the first failing day is day 1). */
export const failingDays = (failingSince: Date, now: Date) => dayNumber(now) - dayNumber(failingSince) + 1;

/**
 * Decides the record after a check. Failing: told after HEALTH_TELL_OWNER_AFTER_FAILING_DAYS UTC days in a row,
 * hidden once `hideAfterDays` days have passed since the first failing check (0: at once). Moved: hidden and told at
 * once. A pass restores and, if the owner had been told of trouble, tells them it is over. Not checked (robots.txt,
 * HTTP 429): nothing changes but the reason. Flapping: at most one hide and one notice per UTC day.
 */
export function decideHealth(
  before: HealthBefore,
  outcome: CheckOutcome,
  now: Date,
  hideAfterDays: number,
): HealthAfter {
  const today = utcDay(now);
  const kept = { etag: before.etag, lastModified: before.lastModified, seen: before.seen };
  let after: Omit<HealthAfter, 'notice' | 'notifiedState' | 'notifiedOn'>;
  if (outcome.state === 'ok') {
    after = {
      state: 'ok',
      reasonKind: null,
      httpStatus: null,
      movedTo: null,
      lastOkAt: now,
      failingSince: null,
      etag: outcome.etag ?? before.etag,
      lastModified: outcome.lastModified ?? before.lastModified,
      seen: outcome.seen ?? before.seen,
      hidden: false,
      hiddenOn: before.hiddenOn,
    };
  } else if (outcome.state === 'unchecked') {
    after = {
      ...kept,
      state: 'unchecked',
      reasonKind: outcome.reason,
      httpStatus: null,
      movedTo: null,
      lastOkAt: before.lastOkAt,
      failingSince: before.failingSince,
      hidden: before.hidden,
      hiddenOn: before.hiddenOn,
    };
  } else {
    const failingSince = before.failingSince ?? now;
    const due = outcome.state === 'moved' || dayNumber(now) - dayNumber(failingSince) >= hideAfterDays;
    // A listing restored today is not hidden again before tomorrow: a site flapping by the hour stays visible.
    const hide = before.hidden || (due && before.hiddenOn !== today);
    after = {
      ...kept,
      state: outcome.state,
      reasonKind: outcome.state === 'moved' ? 'moved' : outcome.reason,
      httpStatus: outcome.state === 'moved' ? null : outcome.httpStatus,
      movedTo: outcome.state === 'moved' ? outcome.movedTo : null,
      lastOkAt: before.lastOkAt,
      failingSince,
      hidden: hide,
      hiddenOn: hide && !before.hidden ? today : before.hiddenOn,
    };
  }
  const wanted = noticeFor(after, now);
  const notice = wanted !== null && wanted !== before.notifiedState && before.notifiedOn !== today ? wanted : null;
  return {
    ...after,
    notice,
    notifiedState: notice ?? before.notifiedState,
    notifiedOn: notice ? today : before.notifiedOn,
  };
}

/** What the owner should have been told by now, given the new record (null: nothing to say either way). */
function noticeFor(
  after: Omit<HealthAfter, 'notice' | 'notifiedState' | 'notifiedOn'>,
  now: Date,
): HealthNotice | null {
  if (after.state === 'ok') return 'ok';
  if (after.state === 'moved') return 'moved';
  if (
    after.state === 'failing' &&
    after.failingSince &&
    failingDays(after.failingSince, now) >= HEALTH_TELL_OWNER_AFTER_FAILING_DAYS
  ) {
    return after.hidden ? 'hidden' : 'failing';
  }
  return null;
}
