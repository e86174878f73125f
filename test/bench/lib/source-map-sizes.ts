// Attributes the bytes of a bundle to its source files through the bundle's source map, so each
// contributor's share can be gzipped on its own (the metafile only knows raw bytes).
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map([...BASE64].map((c, i) => [c, i]));

function decodeVlq(segment: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = DIGIT.get(char);
    if (digit === undefined) throw new Error(`bad VLQ character ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

/** Output text of the bundle grouped by source path (bytes without a mapping go to "(generated)"). */
export function outputBySource(code: string, map: { sources: string[]; mappings: string }): Map<string, string> {
  const chunks = new Map<string, string[]>();
  const add = (source: string, text: string) => {
    if (!text) return;
    const list = chunks.get(source) ?? [];
    list.push(text);
    chunks.set(source, list);
  };
  const lines = code.split('\n');
  const mappingLines = map.mappings.split(';');
  let sourceIndex = 0;
  // A mapping lasts until the next one, across line ends (esbuild maps the start of each statement).
  let current = '(generated)';
  for (let l = 0; l < lines.length; l++) {
    const line = `${lines[l] ?? ''}\n`;
    let column = 0;
    let cursor = 0;
    for (const segment of (mappingLines[l] ?? '').split(',').filter(Boolean)) {
      const [dColumn = 0, dSource] = decodeVlq(segment);
      column += dColumn;
      add(current, line.slice(cursor, column));
      cursor = column;
      if (dSource !== undefined) {
        sourceIndex += dSource;
        current = map.sources[sourceIndex] ?? '(generated)';
      } else current = '(generated)';
      // The remaining fields (line, column, name) are relative too, but only the source matters here.
    }
    add(current, line.slice(cursor));
  }
  return new Map([...chunks].map(([source, list]) => [source, list.join('')]));
}

/** Groups a source path (relative to the project root) by npm package (node_modules/@scope/name) or by top-level app folder. */
export function contributorOf(source: string): string {
  // drizzle-orm ships source maps whose sources ("../../src/pg-core/x.ts") resolve to node_modules/src/.
  if (source.startsWith('node_modules/src/')) return 'drizzle-orm';
  // The Worker build's stripe-node core, rewritten with only the resources it calls (functions/worker/stripe-core-subset.ts).
  if (source === 'dist/worker-build/stripe-core.js') return 'stripe';
  const match = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (match?.[1]) return match[1];
  const parts = source.split('/');
  return parts.length > 1 ? `${parts[0]}/${parts[1]}` : (parts[0] ?? source);
}

/** Finds the source file of a position in the bundle (0-based line and column), as the source map says. */
export function sourceLocator(map: { sources: string[]; mappings: string }): (line: number, column: number) => string {
  const lines: Array<Array<[number, string]>> = [];
  let sourceIndex = 0;
  for (const mappingLine of map.mappings.split(';')) {
    const segments: Array<[number, string]> = [];
    let column = 0;
    for (const segment of mappingLine.split(',').filter(Boolean)) {
      const [dColumn = 0, dSource] = decodeVlq(segment);
      column += dColumn;
      if (dSource === undefined) segments.push([column, '(generated)']);
      else {
        sourceIndex += dSource;
        segments.push([column, map.sources[sourceIndex] ?? '(generated)']);
      }
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segments = lines[line] ?? [];
    let lo = 0;
    let hi = segments.length - 1;
    let found = '(generated)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (segments[mid]![0] <= column) {
        found = segments[mid]![1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}
