import { type GatedCount, MAX_GATES } from './types';

/**
 * One batch on Redis, atomically (a script runs alone): each row passes its gates in order (HINCRBY on the day's
 * marks hash returns what reached the mark so far, this row included; min(reaching, cap − reached before) go
 * on), what passes the last gate is added to the day's counters hash, then the counters get their retention and
 * the marks expire at the end of their day (a batch of a day already over leaves none behind).
 * `#!lua flags=allow-key-locking` lets Upstash lock only these two keys instead of the whole database.
 *
 * KEYS: the counters hash, the marks hash. ARGV: the counters' TTL in seconds, the marks' expiry (Unix seconds),
 * then per row: counter field, n, number of gates, and (mark, cap) per gate. Returns the events counted.
 */
export const COUNT_SCRIPT = `#!lua flags=allow-key-locking
local counts, marks = KEYS[1], KEYS[2]
local i, counted = 3, 0
while i <= #ARGV do
  local field, n, gates = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  i = i + 3
  for _ = 1, gates do
    if n > 0 then
      local reached = redis.call('HINCRBY', marks, ARGV[i], n)
      n = math.min(n, math.max(0, tonumber(ARGV[i + 1]) - (reached - n)))
    end
    i = i + 2
  end
  if n > 0 then
    redis.call('HINCRBY', counts, field, n)
    counted = counted + n
  end
end
redis.call('EXPIRE', counts, ARGV[1])
redis.call('EXPIREAT', marks, ARGV[2])
return counted
`;

/** The end of a UTC day (the next midnight) in Unix seconds: when its marks expire. */
export const endOfDaySeconds = (day: string): number => Date.parse(`${day}T00:00:00Z`) / 1000 + 86_400;

/** The script's ARGV after its first two: the rows, flattened. */
export function countScriptRows(
  rows: readonly GatedCount[],
  field: (slug: string, counter: string) => string,
): (string | number)[] {
  return rows.flatMap(({ slug, counter, n, gates }) => {
    if (gates.length === 0 || gates.length > MAX_GATES) throw new Error(`a counted row needs 1 to ${MAX_GATES} gates`);
    return [field(slug, counter), n, gates.length, ...gates.flatMap((g) => [g.mark, g.cap])];
  });
}
