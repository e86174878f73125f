// The click-through rate, defined once (docs/stats.md): visits to the tool's website through our outbound link,
// per time the tool was shown, as a card (impressions) or as its own page (views). A leaf module: the account
// page, the API's totals and the CLI print the same number.

/** clicks / (impressions + views), rounded to 4 decimals; null when the tool was never shown. */
export function clickThroughRate(totals: { clicks: number; impressions: number; views: number }): number | null {
  const shown = totals.impressions + totals.views;
  if (shown <= 0) return null;
  return Math.round((totals.clicks / shown) * 10_000) / 10_000;
}

/** `3.2 %`, or `–` when there is no rate. */
export const formatRate = (rate: number | null): string =>
  rate === null ? '–' : `${(Math.round(rate * 1000) / 10).toLocaleString('en-US', { maximumFractionDigits: 1 })} %`;
