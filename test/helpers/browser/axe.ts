// axe-core in a real page: every rule of its default set (WCAG 2.x A/AA and best practices), any impact fails.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

let source: string | undefined;
/** axe.min.js from node_modules, read once per test file. */
const axeSource = () =>
  (source ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core on the page as it is now and fails with a readable list of every violation (rule, impact,
 * the elements and why). The script is added through the DevTools protocol, so the page's CSP does not
 * apply to it and nothing about the page has to be loosened for the test.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  const alreadyThere = await page.evaluate(() => 'axe' in window);
  if (!alreadyThere) await page.evaluate(axeSource());
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations;
  })) as AxeViolation[];
  const report = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  ${JSON.stringify(n.target)} ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n')}`,
  );
  expect(
    report.length,
    `axe-core violations on ${page.url()} at ${page.viewportSize()?.width ?? '?'} px:\n${report.join('\n')}`,
  ).toBe(0);
}
