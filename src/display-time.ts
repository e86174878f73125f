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

/**
 * How long ago, in the largest whole unit: `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago` (the tool page's
 * "Checked 3 hours ago"). A time in the future reads as just now.
 * @example timeAgo('2026-11-21T18:05:00Z', new Date('2026-11-21T21:05:00Z')) // '3 hours ago'
 */
export function timeAgo(value: Date | string, now: Date): string {
  const at = value instanceof Date ? value : new Date(value);
  const seconds = Math.max(0, Math.floor((now.getTime() - at.getTime()) / 1000));
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
