import type { Page } from 'playwright-core';

/**
 * What scrolls sideways on the page as it is drawn: the page itself, and any table wider than its
 * box (TableScroll shows its "scroll sideways" hint then), which hides its last columns, a row's
 * actions among them. On a phone such a list shows cards (CardList). Empty when all fits.
 */
export async function sidewaysScrolls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const sideways = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    if (sideways > 0) problems.push(`scrolls sideways by ${sideways} px`);
    for (const table of Array.from(document.querySelectorAll('[data-table-scroll]'))) {
      if (!table.querySelector('[data-scroll-hint]')) continue;
      const name = table.querySelector('[role="region"]')?.getAttribute('aria-label') ?? '?';
      problems.push(`the table "${name}" scrolls sideways`);
    }
    return problems;
  });
}
