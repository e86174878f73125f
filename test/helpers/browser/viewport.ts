// A page fits its viewport: nothing makes the document wider than the screen (no sideways scrolling on a phone).
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Fails naming the widest elements when the document scrolls sideways at this width. */
export async function expectFitsViewport(page: Page, width: number): Promise<void> {
  const measured = await page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 1)
      .slice(0, 5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} → ${Math.round(el.getBoundingClientRect().right)} px`,
      );
    return { scrollWidth: root.scrollWidth, wide };
  });
  expect(
    measured.scrollWidth,
    `${page.url()} is ${measured.scrollWidth} px wide at ${width} px: ${measured.wide.join(', ')}`,
  ).toBeLessThanOrEqual(width);
}
