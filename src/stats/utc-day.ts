// UTC calendar days as `YYYY-MM-DD` strings: the unit of every statistic (a leaf module; the CLI uses it too).

const DAY_MS = 86_400_000;
/** Years 1000 to 9999: every day a statistic can have, and far from the years PostgreSQL has no dates for (0). */
const SHAPE = /^[1-9]\d{3}-\d{2}-\d{2}$/;

/** The UTC day of an instant. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** True for a real calendar day in the `YYYY-MM-DD` form, years 1000 to 9999 (2026-02-30 is not one). */
export function isCalendarDay(value: string): boolean {
  if (!SHAPE.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && utcDay(at) === value;
}

/** `day` moved by `n` days (negative: back). */
export const addDays = (day: string, n: number): string =>
  utcDay(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** How many days from `from` to `to`, both included (1 when they are the same day). */
export const daysInRange = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The Monday (UTC) of the week `day` is in: the key of a weekly report. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}
