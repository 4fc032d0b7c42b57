/**
 * Taps that land before a prerendered page has hydrated. The HTML shows working-looking buttons
 * (the menu, the theme switcher, the subscribe button) before their JavaScript has arrived: a tap
 * on one is held here (and its default, such as a form's native submit, prevented), then given
 * again once React owns the page. Hydration keeps the same DOM nodes, so the held element is the
 * one React now listens on. Links are left alone: before hydration they navigate as plain links.
 */
const SELECTOR = 'button, [role="button"], [role="radio"]';

let held: Element[] | null = null;

function onClick(e: MouseEvent) {
  const target = e.target instanceof Element ? e.target.closest(SELECTOR) : null;
  if (!target || !held) return;
  e.preventDefault();
  if (!held.includes(target)) held.push(target);
}

/** main.tsx, on a prerendered page: start holding taps. */
export function holdEarlyClicks(): void {
  if (held) return;
  held = [];
  document.addEventListener('click', onClick, true);
}

/** boot.tsx, once hydrated: stop holding and give each held tap again, in order. */
export function releaseEarlyClicks(): void {
  if (!held) return;
  const taps = held;
  held = null;
  document.removeEventListener('click', onClick, true);
  for (const el of taps) if (el.isConnected && el instanceof HTMLElement) el.click();
}
