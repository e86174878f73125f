// Whether a page fits its viewport: nothing wider than the screen (no sideways scrolling at 390 px).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** The page's viewport is `width` wide and its document scrolls no wider (document.documentElement.scrollWidth). */
export async function expectFitsViewport(page: Page, width: number): Promise<void> {
  expect(page.viewportSize()?.width, 'viewport width').toBe(width);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `scrollWidth of ${page.url()} at ${width} px`).toBeLessThanOrEqual(width);
}
