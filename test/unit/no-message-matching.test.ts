// Issue 28, "errors carry their field": an edge (a page, a route, an MCP tool) learns which field an error is about
// from details.field or a schema issue's path and code, never by matching the text of a message, which is written for
// people and may change. This scan finds such matching in functions/; the few places that read a message for
// another reason are listed with that reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');

/** Files that read a message's text for a reason other than finding its field. */
const ALLOWED: Record<string, string> = {
  'functions/validation-hook.ts': 'prefixes the field (taken from the path) unless the message already begins with it',
  'functions/errors.ts':
    "Hono's validator reports malformed JSON only in its HTTPException message; no field is involved",
  'functions/mcp/error-prefix.ts': "strips the SDK's own prefix from a JSON-RPC error message before it is sent",
};

const MATCHING_METHODS = new Set(['startsWith', 'endsWith', 'includes', 'match', 'matchAll', 'search', 'indexOf']);
const isMessage = (node: ts.Node, sf: ts.SourceFile) => /message$/i.test(node.getText(sf));

/** Each place in `source` that matches a message's text: `message.startsWith(…)`, `/…/.test(error.message)`, … */
export function messageMatches(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const onMessage = MATCHING_METHODS.has(method) && isMessage(node.expression.expression, sf);
      const ofMessage = (method === 'test' || method === 'exec') && node.arguments.some((arg) => isMessage(arg, sf));
      if (onMessage || ofMessage)
        found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}: ${node.getText(sf)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('no edge finds a field by matching an error message', () => {
  it('finds every kind of match (the scan itself can fail)', () => {
    const copy = [
      `const a = error.message.startsWith('categories:');`,
      `const b = /unknown categor(?:y|ies) ([^;]+)/.exec(message)?.[1];`,
      `const c = /at most/.test(issue.message);`,
      `const d = err.message.includes('url');`,
      `const e = error.details.field === 'categories' && issue.code === 'too_big';`,
      `const f = message.replace(/^name /, 'The name ');`,
    ].join('\n');
    expect(messageMatches('copy.ts', copy).map((found) => found.split(':')[1])).toEqual(['1', '2', '3', '4']);
  });

  it('functions/ holds none outside the listed files', () => {
    const files = readdirSync(join(root, 'functions'), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)));
    expect(files.length).toBeGreaterThan(100);
    const found = files
      .filter((file) => !(file in ALLOWED))
      .flatMap((file) => messageMatches(file, readFileSync(join(root, file), 'utf8')));
    expect(found).toEqual([]);
  });

  it('every listed file exists, still reads a message and says why', () => {
    for (const [file, reason] of Object.entries(ALLOWED)) {
      expect(messageMatches(file, readFileSync(join(root, file), 'utf8')).length, file).toBeGreaterThan(0);
      expect(reason).not.toBe('');
    }
  });
});
