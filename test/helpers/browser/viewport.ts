import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page scrolls nothing sideways at this width: the document is no wider than the viewport. */
export async function expectFitsViewport(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `scrollWidth of ${page.url()} at ${width} px`).toBeLessThanOrEqual(width);
}
