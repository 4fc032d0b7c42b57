import type { Page } from 'playwright-core';

/**
 * How far the page is wider than the screen, and the elements that stick out the most (issue 20:
 * no page overflows a phone). The screen's width is the smaller of innerWidth and the viewport's
 * width: a phone (and Chromium's phone emulation) zooms out to show a page that is too wide, and
 * then innerWidth grows with the page.
 */
export async function overflow(page: Page): Promise<{ excess: number; widest: string[] }> {
  const phoneWidth = page.viewportSize()?.width ?? 10_000;
  return page.evaluate((phoneWidth) => {
    const vw = Math.min(window.innerWidth, phoneWidth);
    const excess = document.documentElement.scrollWidth - vw;
    const widest: string[] = [];
    if (excess > 0) {
      for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
        const r = el.getBoundingClientRect();
        if (r.right > vw + 1 && r.width > 0) {
          const id = el.getAttribute('data-testid') ?? el.id ?? '';
          widest.push(`${el.tagName.toLowerCase()}${id ? `#${id}` : ''}.${String(el.className).slice(0, 60)} right=${Math.round(r.right)}`);
        }
      }
    }
    return { excess, widest: widest.slice(-6) };
  }, phoneWidth);
}

/** Adds a line to `problems` when the page is wider than its screen. */
export async function expectFits(page: Page, where: string, problems: string[]): Promise<void> {
  const o = await overflow(page);
  if (o.excess > 0) problems.push(`${where}: ${o.excess}px too wide — ${o.widest.join(' | ')}`);
}

/** Clicks every tab of the page and checks that each panel fits the screen (`settle` waits for the panel). */
export async function walkTabs(page: Page, where: string, problems: string[], settle: (page: Page) => Promise<void>): Promise<void> {
  const tabs = page.getByRole('tab');
  const n = await tabs.count();
  for (let i = 0; i < n; i++) {
    const tab = tabs.nth(i);
    const name = ((await tab.textContent()) ?? '').trim();
    await tab.click();
    await settle(page);
    await expectFits(page, `${where} tab "${name}"`, problems);
  }
}
