import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  dailyLimitEnv,
  defaultDailyLimits,
  membershipPrices,
  membershipTiers,
  planNames,
  planPrices,
} from '../../../src/catalog/plans';
import { coveredPlans, priceText } from '../../../src/submissions/plan-words';

// Issue 22, "each fact once": a plan name, a price or a default quota is spelled in src/catalog/plans.ts and
// nowhere else in the sources; every other module reads it from there. Comments may name plans (they explain);
// string and number literals may not. The docs are prose, so they are checked against the table instead.

const root = join(import.meta.dirname, '../../..');
const PLAN_MODULE = 'src/catalog/plans.ts';

/** Files allowed to spell a plan fact, each with the reason it cannot read the table. */
const ALLOWED: Record<string, string> = {
  // Generated Unicode data: none of its strings is a plan fact, and parsing 300 KB of it is slow.
  'src/submissions/confusable-prototypes.ts': 'generated confusables data',
};

const names: readonly string[] = [...new Set([...planNames, ...membershipTiers])];
const namesPattern = names.join('|');
const amounts = [...Object.values(planPrices), ...Object.values(membershipPrices)];
const cents = new Set(amounts.map((price) => price.amountCents));
const amountPattern = new RegExp(
  `(?<![\\d.])(${amounts.map((price) => (price.amountCents / 100).toFixed(2).replace('.', '\\.')).join('|')})(?![\\d])`,
);
const quotaPattern = new RegExp(`\\b(${Object.values(defaultDailyLimits).join('|')}) (submissions?|a day|per day)\\b`);
const rules: { why: string; test: (text: string) => boolean }[] = [
  { why: 'a plan or tier name as a string', test: (text) => names.includes(text) },
  // SQL's 'featured' and JSON's "tier":"member"; an HTML attribute (class="sponsored") is markup, not the plan.
  {
    why: 'a quoted plan or tier name (SQL, JSON)',
    test: (text) => new RegExp(`'(${namesPattern})'|:\\s*"(${namesPattern})"`).test(text),
  },
  { why: 'the tier memberFeature in words', test: (text) => /\bmemberFeature\b/.test(text) },
  {
    why: 'a list of plan names',
    test: (text) => new RegExp(`\\b(${namesPattern})\\s*[|,/]\\s*(${namesPattern})\\b`).test(text),
  },
  { why: 'a price', test: (text) => amountPattern.test(text) },
  { why: 'a default daily quota', test: (text) => quotaPattern.test(text) },
];

interface Finding {
  file: string;
  line: number;
  literal: string;
  why: string;
}

/** Every string and number literal of a TypeScript source that spells a plan fact. */
export function planLiterals(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: Finding[] = [];
  const report = (node: ts.Node, literal: string, why: string) =>
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, literal, why });
  const visit = (node: ts.Node): void => {
    if (ts.isNumericLiteral(node) && cents.has(Number(node.text))) report(node, node.text, 'a price in cents');
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const rule = rules.find((r) => r.test(node.text));
      if (rule) report(node, node.text.slice(0, 120), rule.why);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe('the plan table is the only place that spells a plan fact', () => {
  it('finds every kind of copy (the scan itself can fail)', () => {
    const copy = [
      `const a = 'featured';`,
      "const b = sql`WHERE plan IN ('sponsored', 'pro')`;",
      `const c = { tier: 'memberFeature' };`,
      `const d = 'plan is basic | featured';`,
      `const e = 1590;`,
      `const f = \`costs 29.90 USD\`;`,
      `const g = '5 submissions a day';`,
      '// a comment may say basic, featured or 15.90',
      `const h = 'a featured tool'; const i = 15.9; const j = 'impressions_sponsored'; const k = '<p class="sponsored">';`,
      `const l = '{"email":"a@b.c","tier":"member"}';`,
    ].join('\n');
    expect(planLiterals('copy.ts', copy).map((f) => [f.line, f.why])).toEqual([
      [1, 'a plan or tier name as a string'],
      [2, 'a quoted plan or tier name (SQL, JSON)'],
      [3, 'a plan or tier name as a string'],
      [4, 'a list of plan names'],
      [5, 'a price in cents'],
      [6, 'a price'],
      [7, 'a default daily quota'],
      [10, 'a quoted plan or tier name (SQL, JSON)'],
    ]);
  });

  it('src/ and functions/ hold no plan name, price or quota outside the plan module', () => {
    const files = [...sources('src'), ...sources('functions')].filter(
      (file) => file !== PLAN_MODULE && !(file in ALLOWED),
    );
    expect(files.length).toBeGreaterThan(100);
    const findings = files.flatMap((file) => planLiterals(file, readFileSync(join(root, file), 'utf8')));
    expect(findings).toEqual([]);
  });

  it('every allow-listed file exists and says why', () => {
    for (const [file, reason] of Object.entries(ALLOWED)) {
      expect(readFileSync(join(root, file), 'utf8').length).toBeGreaterThan(0);
      expect(reason).not.toBe('');
    }
  });
});

describe('the docs agree with the plan table', () => {
  const doc = (path: string) => readFileSync(join(root, path), 'utf8');
  const prose = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const known = new Set(amounts.map((price) => (price.amountCents / 100).toFixed(2)));

  // The pricing table of docs/pages.md and the README's price sentence: test/functions/pages/pricing-page.test.ts.
  it('every amount the docs give next to a plan or tier is a price of the table', () => {
    const stale: string[] = [];
    for (const path of prose) {
      doc(path)
        .split('\n')
        .forEach((line, i) => {
          if (!new RegExp(`\\b(${namesPattern})\\b`).test(line) && !/STRIPE_PRICE_/.test(line)) return;
          for (const [amount] of line.matchAll(/(?<![\d.])\d{1,3}\.\d\d(?![\d.%])/g)) {
            if (!known.has(amount)) stale.push(`${path}:${i + 1}: ${amount}`);
          }
        });
    }
    expect(stale).toEqual([]);
  });

  it("docs/pages.md states each membership's price, covered plans and default quota as the table has them", () => {
    const pages = doc('docs/pages.md').replace(/\s+/g, ' ');
    const tiers = membershipTiers.map((tier, i) => {
      const covers = coveredPlans(tier).join(' and ');
      return `\`${tier}\` (${priceText(membershipPrices[tier])}) ${i === 0 ? `covers ${covers} listings` : covers}`;
    });
    const quotas = membershipTiers.map((tier) => defaultDailyLimits[tier]).join(' and ');
    expect(pages).toContain(
      `Memberships: ${tiers.join(', ')}, each up to its daily quota (${quotas} by default, per UTC day)`,
    );
  });

  it('the README states the default daily quotas of the table', () => {
    const readme = doc('README.md');
    for (const tier of membershipTiers)
      expect(readme).toContain(`| \`${dailyLimitEnv[tier]}\` | \`${defaultDailyLimits[tier]}\` |`);
  });
});
