// Query parameters as the text Neon expects: node-postgres's prepareValue (the copy inside
// @neondatabase/serverless 1.2.0) followed by that client's bytea step, without Node's Buffer (Workers have none).

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** A Date as local time with its UTC offset, like pg's dateToString (UTC on Workers). */
function dateToString(date: Date): string {
  let offset = -date.getTimezoneOffset();
  let year = date.getFullYear();
  const bc = year < 1;
  if (bc) year = Math.abs(year) + 1;
  let text =
    `${pad(year, 4)}-${pad(date.getMonth() + 1, 2)}-${pad(date.getDate(), 2)}T${pad(date.getHours(), 2)}:` +
    `${pad(date.getMinutes(), 2)}:${pad(date.getSeconds(), 2)}.${pad(date.getMilliseconds(), 3)}`;
  if (offset < 0) {
    text += '-';
    offset *= -1;
  } else text += '+';
  text += `${pad(Math.floor(offset / 60), 2)}:${pad(offset % 60, 2)}`;
  return bc ? `${text} BC` : text;
}

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** A JS array as a PostgreSQL array literal (comma-separated, so not for box[]). */
function arrayString(values: unknown[]): string {
  const items = values.map((item) => {
    if (item === null || item === undefined) return 'NULL';
    if (Array.isArray(item)) return arrayString(item);
    if (ArrayBuffer.isView(item)) return `\\\\x${hex(bytesOf(item))}`;
    return `"${String(toText(item)).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  });
  return `{${items.join(',')}}`;
}

function toText(value: unknown, seen: unknown[] = []): string | Uint8Array | null {
  if (value === null || value === undefined) return null;
  if (ArrayBuffer.isView(value)) return bytesOf(value);
  if (value instanceof Date) return dateToString(value);
  if (Array.isArray(value)) return arrayString(value);
  if (typeof value === 'object') {
    const custom = value as { toPostgres?: (prepare: (v: unknown) => unknown) => unknown };
    if (typeof custom.toPostgres === 'function') {
      if (seen.includes(value))
        throw new Error(`circular reference detected while preparing "${String(value)}" for query`);
      seen.push(value);
      return toText(
        custom.toPostgres((v) => toText(v)),
        seen,
      );
    }
    return JSON.stringify(value);
  }
  return (value as { toString(): string }).toString();
}

/** One parameter as sent in the JSON body: text, null, or bytes as `\x…` hex. */
export function prepareValue(value: unknown): string | null {
  const text = toText(value);
  return text instanceof Uint8Array ? `\\x${hex(text)}` : text;
}
