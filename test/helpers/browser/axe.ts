// axe-core in a real page: the default rule set, and any violation of any impact fails the test.
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

interface Violation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (all default rules) on the page as it is now and fails on any violation, listing each rule with
 * the elements it flagged. The script is evaluated through the DevTools protocol, so the page's strict CSP (no
 * inline script) stays on and is what is tested.
 */
export async function expectNoAxeViolations(page: Page): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = await (window as unknown as { axe: typeof axe }).axe.run(document);
    return run.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
  expect(violations satisfies Violation[], `axe-core violations on ${page.url()}`).toEqual([]);
}
