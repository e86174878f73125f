// How a JSON Schema reads on the reference page: its type in words, its constraints, and an object's fields as
// nested lists. References are followed; a schema met again inside itself is named, not expanded.
import { html } from 'hono/html';
import type { Html } from '../shell/html';
import { deref, type ApiDocument, type Schema } from './openapi-model';

/** Descriptions carry one kind of markup, `code`; everything is escaped. */
export const prose = (text = '') => text.split('`').map((part, i) => (i % 2 ? html`<code>${part}</code>` : part));

export const literal = (value: unknown) =>
  html`<code>${typeof value === 'string' ? value : JSON.stringify(value)}</code>`;

/** The schema behind references, with allOf merged into one object (its properties and required lists joined). */
export function flatten(doc: ApiDocument, schema: Schema = {}, depth = 0): { s: Schema; name?: string } {
  const { value, name } = deref(doc, schema);
  if (!value.allOf || depth > 8) return { s: value, name };
  const parts = value.allOf.map((part) => flatten(doc, part, depth + 1).s);
  const all = [...parts, value];
  return {
    s: {
      ...Object.assign({}, ...all),
      allOf: undefined,
      properties: Object.assign({}, ...all.map((p) => p.properties)),
      required: all.flatMap((p) => p.required ?? []),
    },
    name,
  };
}

const alternatives = (doc: ApiDocument, s: Schema) => (s.oneOf ?? s.anyOf ?? []).map((a) => flatten(doc, a));

/** `string (uuid)`, `integer or null`, `array of object`, `string or object`. */
export function typeOf(doc: ApiDocument, schema: Schema, depth = 0): string {
  const { s } = flatten(doc, schema);
  const alts = alternatives(doc, s);
  if (depth > 8) return 'any';
  if (alts.length) return [...new Set(alts.map(({ s: a }) => typeOf(doc, a, depth + 1)))].join(' or ');
  const types = [s.type ?? (s.properties ? 'object' : s.items ? 'array' : 'any')].flat();
  if (s.nullable) types.push('null');
  const words = types
    .map((t) => (t === 'array' ? `array of ${typeOf(doc, s.items ?? {}, depth + 1)}` : t))
    .join(' or ');
  return s.format ? `${words} (${s.format})` : words;
}

const range = (min: number | undefined, max: number | undefined, unit: string) =>
  min !== undefined && max !== undefined
    ? `${min} to ${max}${unit}`
    : min !== undefined
      ? `at least ${min}${unit}`
      : max !== undefined
        ? `at most ${max}${unit}`
        : '';

/** Allowed values, default, ranges, lengths, pattern and example, as short phrases. */
export function constraints(doc: ApiDocument, s: Schema): Html[] {
  const alts = alternatives(doc, s).map((a) => a.s);
  const values = s.enum ?? (alts.length && alts.every((a) => a.enum) ? alts.flatMap((a) => a.enum!) : undefined);
  const notes: Array<Html | string> = [
    values
      ? html`${values.length === 1 ? 'always' : 'one of'} ${values.map((v, i) => [i ? ', ' : '', literal(v)])}`
      : '',
    s.const !== undefined ? html`always ${literal(s.const)}` : '',
    s.default !== undefined ? html`default ${literal(s.default)}` : '',
    range(s.minimum, s.maximum, ''),
    range(s.minLength, s.maxLength, ' characters'),
    range(s.minItems, s.maxItems, ' items'),
    s.pattern ? html`pattern ${literal(s.pattern)}` : '',
    s.example !== undefined ? html`example ${literal(s.example)}` : '',
  ];
  return notes.filter((n) => n !== '') as Html[];
}

/** An object's fields (an array's items' fields; each alternative's fields) as a nested list; '' for a scalar. */
export function fields(doc: ApiDocument, schema: Schema | undefined, seen: readonly string[] = []): Html | '' {
  const { s, name } = flatten(doc, schema);
  if (name && seen.includes(name)) return html` <small>(a ${name} again: its fields are above)</small>`;
  const within = name ? [...seen, name] : seen;
  const alts = alternatives(doc, s);
  if (alts.some((a) => a.s.properties)) {
    return html`<ul class="fields">${alts.map((a, i) => html`<li>${i ? 'or' : 'One of'} <strong>${a.name ?? `option ${i + 1}`}</strong>${fields(doc, a.s, a.name ? [...within, a.name] : within)}</li>`)}</ul>`;
  }
  if (s.items) return fields(doc, s.items, within);
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
  if (!s.properties && !extra) return '';
  return html`<ul class="fields">${Object.entries(s.properties ?? {}).map(([key, p]) => field(doc, key, p, s.required?.includes(key), within))}${extra ? field(doc, '(any name)', extra, false, within) : ''}</ul>`;
}

/** One field: name, type, whether it is required, description, constraints, and its own fields. */
export function field(
  doc: ApiDocument,
  key: string,
  schema: Schema,
  required: boolean | undefined,
  seen: readonly string[] = [],
): Html {
  const { s } = flatten(doc, schema);
  const notes = constraints(doc, s);
  const description = schema.description ?? s.description;
  return html`<li><code>${key}</code> <em>${typeOf(doc, s)}</em>${required ? html` <strong>required</strong>` : ''}${description ? html` – ${prose(description)}` : ''}${notes.length ? html` <small>(${notes.map((n, i) => [i ? '; ' : '', n])})</small>` : ''}${fields(doc, schema, seen)}</li>`;
}
