// axe-core in a real page: every rule of the default set, failing on any violation of any impact.
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs axe-core's default rules on the page as it is and fails with each violation's rule, impact and targets.
 * The script goes in through page.evaluate (the DevTools protocol), which the pages' strict CSP does not apply to:
 * nothing about the page is loosened for the check.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return results.violations.map((v) => ({ rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  const summary = violations.map((v) => `${v.rule} (${v.impact}): ${v.targets.join(', ')}`).join('; ');
  expect(violations, `axe-core violations on ${page.url()}: ${summary}`).toEqual([]);
}
