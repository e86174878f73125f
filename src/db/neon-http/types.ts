// Result values by type OID: the text parsers of pg-types 2.2 (the copy inside @neondatabase/serverless 1.2.0),
// with drizzle's neon-http overrides (dates, timestamps, intervals and numeric[] stay text: drizzle maps them
// itself). Any other type stays the text PostgreSQL sent. bytea becomes a Uint8Array (the official client's Buffer
// shim is a Uint8Array too; Workers have no Buffer).
import { parse as parseArray } from 'postgres-array';

type Parser = (text: string) => unknown;

const identity: Parser = (text) => text;
const int: Parser = (text) => parseInt(text, 10);
const bool: Parser = (text) =>
  text === 'TRUE' || text === 't' || text === 'true' || text === 'y' || text === 'yes' || text === 'on' || text === '1';
const json: Parser = (text) => JSON.parse(text);

function point(text: string): { x: number; y: number } | null {
  if (text[0] !== '(') return null;
  const [x, y] = text.substring(1, text.length - 1).split(',');
  return { x: parseFloat(x!), y: parseFloat(y!) };
}

function circle(text: string): { x: number; y: number; radius: number } | null {
  if (text[0] !== '<' && text[1] !== '(') return null;
  let centre = '(';
  let radius = '';
  let centreDone = false;
  for (let i = 2; i < text.length - 1; i++) {
    if (!centreDone) centre += text[i];
    if (text[i] === ')') {
      centreDone = true;
      continue;
    } else if (!centreDone) continue;
    if (text[i] !== ',') radius += text[i];
  }
  return Object.assign(point(centre)!, { radius: parseFloat(radius) });
}

/** postgres-bytea: hex (`\x…`) or escape format. */
function bytea(text: string): Uint8Array {
  if (/^\\x/.test(text)) {
    const digits = text.slice(2);
    const bytes = new Uint8Array(digits.length >> 1);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(digits.substr(i * 2, 2), 16);
    return bytes;
  }
  const out: number[] = [];
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '\\') {
      out.push(text.charCodeAt(i) & 0xff);
      i++;
    } else if (/[0-7]{3}/.test(text.substr(i + 1, 3))) {
      out.push(parseInt(text.substr(i + 1, 3), 8));
      i += 4;
    } else {
      let run = 1;
      while (i + run < text.length && text[i + run] === '\\') run++;
      for (let k = 0; k < Math.floor(run / 2); k++) out.push(0x5c);
      i += Math.floor(run / 2) * 2;
    }
  }
  return Uint8Array.from(out);
}

/** An array of `element` (postgres-array leaves NULL elements null without calling it); `''` is null, as in pg-types. */
const arrayOf =
  (element?: Parser): Parser =>
  (text) =>
    text ? parseArray(text, element ?? identity) : null;

const PARSERS: Record<number, Parser> = {
  20: identity, // int8: text (pg-types returns the digits as they came)
  21: int,
  23: int,
  26: int, // int2, int4, oid
  700: parseFloat,
  701: parseFloat, // float4, float8
  16: bool,
  600: point,
  718: circle,
  17: bytea,
  114: json,
  3802: json, // json, jsonb
  1000: arrayOf(bool),
  1001: arrayOf(bytea),
  1005: arrayOf(int),
  1007: arrayOf(int),
  1028: arrayOf(int), // int2[], int4[], oid[]
  1016: arrayOf((e) => e.trim()), // int8[]
  1017: arrayOf(point),
  1021: arrayOf(parseFloat),
  1022: arrayOf(parseFloat), // float4[], float8[]
  199: arrayOf(json),
  3807: arrayOf(json), // json[], jsonb[]
  // text-element arrays: cidr, char, varchar, name, text, macaddr, inet, numrange, uuid, money, time, timetz
  651: arrayOf(),
  1014: arrayOf(),
  1015: arrayOf(),
  1008: arrayOf(),
  1009: arrayOf(),
  1040: arrayOf(),
  1041: arrayOf(),
  3907: arrayOf(),
  2951: arrayOf(),
  791: arrayOf(),
  1183: arrayOf(),
  1270: arrayOf(),
};

/** A non-null value of the type `oid`, from PostgreSQL's text output. */
export function parseValue(oid: number, text: string): unknown {
  return (PARSERS[oid] ?? identity)(text);
}
