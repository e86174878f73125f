// How a time is shown to people, in one format everywhere: the website and the CLI both import this leaf module.
// Machine-readable bodies (the API, `--json`) keep their own formats (docs/api-timestamps.md).

/**
 * `2026-11-21 21:05 UTC`, or a dash for no time. Accepts a Date, ISO 8601 (`2026-11-21T21:05:03.000Z`) and the
 * site record's database style (`2026-11-21 21:05:03+00`); anything else is shown as it is.
 * @example formatTime('2026-11-21 21:05:03+00') // '2026-11-21 21:05 UTC'
 */
export function formatTime(value: Date | string | null | undefined): string {
  if (!value) return '–';
  const date = value instanceof Date ? value : new Date(value.replace(' ', 'T').replace(/\+00$/, 'Z'));
  return Number.isNaN(date.getTime()) ? String(value) : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The UTC day of a time, `2026-11-21` (the date half of formatTime), or a dash. */
export function formatDate(value: Date | string | null | undefined): string {
  const time = formatTime(value);
  return /^\d{4}-\d{2}-\d{2} /.test(time) ? time.slice(0, 10) : time;
}
