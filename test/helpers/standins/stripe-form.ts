// Parses Stripe's form encoding (metadata[site_id]=x, line_items[0][price]=y) into a nested object.

/** A parsed form value: strings at the leaves, objects and arrays above them. */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
type FormObject = { [key: string]: FormValue };

function splitKey(key: string): string[] {
  const first = key.indexOf('[');
  if (first < 0) return [key];
  const parts = [key.slice(0, first)];
  for (const match of key.slice(first).matchAll(/\[([^\]]*)\]/g)) parts.push(match[1] ?? '');
  return parts;
}

function assign(target: FormObject, path: string[], value: string): void {
  let node: FormObject = target;
  for (let i = 0; i < path.length - 1; i++) {
    let segment = path[i] ?? '';
    if (segment === '') segment = String(Object.keys(node).length); // `a[]=x` appends
    const existing = node[segment];
    if (typeof existing === 'object' && existing !== null && !Array.isArray(existing)) node = existing;
    else {
      const child: FormObject = {};
      node[segment] = child;
      node = child;
    }
  }
  let last = path[path.length - 1] ?? '';
  if (last === '') last = String(Object.keys(node).length);
  node[last] = value;
}

/** Objects whose keys are exactly 0..n-1 become arrays, as Stripe reads `items[0]`, `items[1]`. */
function arraysFromIndexes(value: FormValue): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, arraysFromIndexes(value[k] as FormValue)] as const);
  const isList = keys.length > 0 && keys.every((k, i) => k === String(i));
  return isList ? entries.map(([, v]) => v) : Object.fromEntries(entries);
}

/** Parses an application/x-www-form-urlencoded body the way Stripe's API reads it. */
export function parseStripeForm(body: string): { [key: string]: FormValue } {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(body)) assign(root, splitKey(key), value);
  return arraysFromIndexes(root) as FormObject;
}
