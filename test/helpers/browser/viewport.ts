// A page fits the viewport: nothing makes the document wider than the screen (no sideways scrolling).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Fails when the document is wider than `width` CSS pixels (set the viewport to that width first). */
export async function expectFitsViewport(page: Page, width: number): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth, `document width of ${page.url()} at a ${width} px viewport`).toBeLessThanOrEqual(width);
}
