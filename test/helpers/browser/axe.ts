import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Runs axe-core (its default rule set, every impact) on the page as it is now and fails on any violation, naming
 * each rule and the elements it found. axe's source is injected as a script of the test, not of the page, so the
 * page's own CSP (no inline script) is not loosened for it.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  // Once per document: a second injection would only parse the 500 KB again.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
  expect(violations, `axe-core on ${page.url()} (${page.viewportSize()?.width ?? '?'} px)`).toEqual([]);
}
