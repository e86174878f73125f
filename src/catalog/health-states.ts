// The closed lists of a live tool's health (docs/health.md): the states a re-check records, the kinds of reason, the
// words a reader and an owner are told, and the fixed numbers of the consequences. The site_health table types its
// columns with them, the API's schemas declare them, and src/health/ decides with them.

/** What the last re-check found: answering, not answering, leading to another domain, or not checked (yet, or not allowed). */
export const healthStates = ['ok', 'failing', 'moved', 'unchecked'] as const;
export type HealthState = (typeof healthStates)[number];

/** Why a check did not end `ok`: each kind has its words below. */
export const healthReasonKinds = [
  'no_answer',
  'tls_error',
  'http_5xx',
  'not_found',
  'http_error',
  'dns_gone',
  'redirect_loop',
  'blocked_address',
  'moved',
  'robots_disallowed',
  'rate_limited',
  'not_checked_yet',
] as const;
export type HealthReasonKind = (typeof healthReasonKinds)[number];

/** The reason in words (an HTTP status only when the site sent one). */
export function healthReasonWords(kind: HealthReasonKind, httpStatus: number | null = null): string {
  switch (kind) {
    case 'no_answer':
      return 'no answer';
    case 'tls_error':
      return 'TLS error';
    case 'http_5xx':
      return httpStatus ? `HTTP ${httpStatus}` : 'HTTP 5xx';
    case 'not_found':
      return httpStatus ? `not found (HTTP ${httpStatus})` : 'not found';
    case 'http_error':
      return httpStatus ? `HTTP ${httpStatus}` : 'HTTP error';
    case 'dns_gone':
      return 'DNS gone';
    case 'redirect_loop':
      return 'redirects in a loop';
    case 'blocked_address':
      return 'leads to an address that is not public';
    case 'moved':
      return 'leads to another domain';
    case 'robots_disallowed':
      return "the site's robots.txt asks us not to check it";
    case 'rate_limited':
      return 'the site asked us to come back later (HTTP 429)';
    case 'not_checked_yet':
      return 'not checked yet';
  }
}

/** Failing days in a row (UTC days, the first failing one included) after which the owner is told. */
export const HEALTH_TELL_OWNER_AFTER_FAILING_DAYS = 3;
/** The default of HEALTH_HIDE_AFTER_DAYS: days since the first failing check after which the listing is hidden. */
export const HEALTH_HIDE_AFTER_DAYS_DEFAULT = 14;
/** How long a round holds a claimed tool: a round that dies leaves it due again after this (never checked twice). */
export const HEALTH_CLAIM_LEASE_SECONDS = 600;
/** Tools one round claims at most (about a minute of the day's share at 1,000,000 tools). */
export const HEALTH_ROUND_LIMIT = 1000;
/** Checks one round runs at once (a Worker keeps at most 6 connections open). */
export const HEALTH_ROUND_CONCURRENCY = 6;
/** Site ids one POST /api/jobs/recheck may name. */
export const HEALTH_MAX_SITE_IDS = 100;

/** What an owner can be told (mail and webhook): back to ok, failing for days, hidden for failing, moved (hidden at once). */
export const healthNotices = ['ok', 'failing', 'hidden', 'moved'] as const;
export type HealthNotice = (typeof healthNotices)[number];

/** The `health` object of the site record, the public tool JSON and MCP results (docs/contract.md "Health"). */
export interface PublicHealth {
  state: HealthState;
  last_checked_at: string | null;
  last_ok_at: string | null;
  failing_since: string | null;
  /** In words; null when ok. */
  reason: string | null;
  /** For `moved`: the domain the site now leads to. */
  moved_to: string | null;
}

/** The stored columns (timestamps already ISO 8601 text, or anything Date can read) as the public object. */
export function publicHealth(row: {
  state: string | null;
  reason_kind: string | null;
  http_status: number | string | null;
  moved_to: string | null;
  last_checked_at: string | Date | null;
  last_ok_at: string | Date | null;
  failing_since: string | Date | null;
}): PublicHealth {
  const state = (healthStates as readonly string[]).includes(row.state ?? '')
    ? (row.state as HealthState)
    : 'unchecked';
  const kind = (healthReasonKinds as readonly string[]).includes(row.reason_kind ?? '')
    ? (row.reason_kind as HealthReasonKind)
    : null;
  const status = Number(row.http_status);
  return {
    state,
    last_checked_at: iso(row.last_checked_at),
    last_ok_at: iso(row.last_ok_at),
    failing_since: state === 'failing' || state === 'moved' ? iso(row.failing_since) : null,
    reason:
      state === 'ok'
        ? null
        : kind
          ? healthReasonWords(kind, Number.isInteger(status) && status >= 100 && status <= 599 ? status : null)
          : state === 'unchecked'
            ? healthReasonWords('not_checked_yet')
            : null,
    moved_to: state === 'moved' ? row.moved_to : null,
  };
}

function iso(value: string | Date | null): string | null {
  if (value === null || value === '') return null;
  const at = value instanceof Date ? value : new Date(value);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}
