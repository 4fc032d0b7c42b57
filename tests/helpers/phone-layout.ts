import type { Page } from 'playwright-core';

/**
 * The phone walk's measure (issue 37, decision 37-08): on the page as it is now, what is cut or
 * covered. Runs inside the page; one line per problem, named by the element's tag, id or test id,
 * and its text. What counts:
 *
 * - **clipped**: a text run, control or image that reaches past the box of an ancestor that hides
 *   its overflow (`overflow: hidden | clip`), or past the right edge of the screen, by more than
 *   1 px; a text cut with an ellipsis or a line clamp without a full accessible label (`title` or
 *   `aria-label` holding the whole text) on it or its ancestors.
 * - **scrolls sideways**: a box that scrolls horizontally (`overflow-x: auto | scroll`, content
 *   wider than the box) and is not a strip meant to scroll: a tab list, `pre`, a text area, or a
 *   box marked `data-scroll-strip` (a gallery that scrolls on purpose). A table in a scrolling box
 *   hides its right-hand columns on a phone: tables become cards instead.
 * - **overlap**: two visible controls whose boxes intersect by more than 2 px each way, or a
 *   control over a text run it does not contain, unless one holds the other (a button in a link,
 *   a label's own field).
 * - **distorted**: an image drawn with `object-fit: fill` at an aspect ratio 3% or more off its own.
 *
 * Ignored: what is not rendered (`display: none`, `visibility: hidden`, opacity 0, 1 px
 * visually-hidden text), what is under `aria-hidden="true"` or `inert` or outside the topmost open
 * dialog (the page behind an open menu or dialog), the notifications region (toasts are checked on their own), what is clipped away entirely (an off-screen menu, a closed accordion), and what sits
 * inside a strip meant to scroll sideways (it is reached by scrolling).
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  const phoneWidth = page.viewportSize()?.width ?? 10_000;
  return page.evaluate((phoneWidth) => {
    const vw = Math.min(window.innerWidth, phoneWidth);
    const SLACK = 1;
    const INTERACTIVE =
      'a[href],button,input:not([type=hidden]),select,textarea,summary,[role=button],[role=tab],[role=link],[role=checkbox],[role=radio],[role=switch],[role=menuitem],[role=combobox],[role=slider],[tabindex]:not([tabindex="-1"])';
    type Box = { left: number; top: number; right: number; bottom: number };
    const problems = new Set<string>();
    const styles = new Map<Element, CSSStyleDeclaration>();
    const style = (el: Element) => {
      let s = styles.get(el);
      if (!s) styles.set(el, (s = getComputedStyle(el)));
      return s;
    };
    const name = (el: Element, text?: string) => {
      const tag = el.tagName.toLowerCase();
      const id = el.getAttribute('data-testid') ?? el.id;
      const label = (text ?? el.getAttribute('aria-label') ?? (el as HTMLElement).innerText ?? '').replace(/\s+/g, ' ').trim().slice(0, 40);
      return `${tag}${id ? `#${id}` : ''}${label ? ` "${label}"` : ''}`;
    };
    // the page behind an open dialog; and the notifications region (a toast shows after an action, checked on its own).
    // With a dialog open, only the topmost one counts: the page under its overlay is aria-hidden, except the
    // ancestors of a live region (kept for announcements: the orders list's page summary kept the /admin tab
    // panel exposed, and it was measured as lying over the order dialog, decision 37-09)
    const openDialogs = Array.from(document.querySelectorAll('[role="dialog"][data-state="open"],[role="alertdialog"][data-state="open"]'));
    const topDialog = openDialogs[openDialogs.length - 1];
    const hiddenByAria = (el: Element) => !!el.closest('[aria-hidden="true"],[inert],[data-sonner-toaster]') || (!!topDialog && !topDialog.contains(el));
    const rendered = (el: Element) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true } as CheckVisibilityOptions);
    const isStrip = (el: Element) =>
      el.getAttribute('role') === 'tablist' || el.tagName === 'PRE' || el.tagName === 'TEXTAREA' || el.hasAttribute('data-scroll-strip') || !!el.closest('pre');
    // ancestors that cut what reaches past them: [box, axis, scrolls?]
    type Clip = { el: Element; box: Box; x: boolean; y: boolean; scrollsX: boolean; strip: boolean };
    const clipCache = new Map<Element, Clip[]>();
    const clipsOf = (el: Element | Text): Clip[] => {
      const parent = el.parentElement;
      if (!parent || parent === document.documentElement) return [];
      const cached = clipCache.get(parent);
      if (cached) return cached;
      const own: Clip[] = [];
      const s = style(parent);
      if (parent !== document.body && (s.overflowX !== 'visible' || s.overflowY !== 'visible')) {
        const r = parent.getBoundingClientRect();
        const b = { left: r.left + parent.clientLeft, top: r.top + parent.clientTop, right: r.left + parent.clientLeft + parent.clientWidth, bottom: r.top + parent.clientTop + parent.clientHeight };
        const scrollsX = s.overflowX === 'auto' || s.overflowX === 'scroll';
        own.push({ el: parent, box: b, x: s.overflowX !== 'visible', y: s.overflowY !== 'visible', scrollsX, strip: isStrip(parent) });
      }
      // a fixed box is cut by the screen only
      const list = s.position === 'fixed' ? own : [...own, ...clipsOf(parent)];
      clipCache.set(parent, list);
      return list;
    };
    // a plain copy: a DOMRect's sides are getters, which spreading does not copy
    const plain = (r: Box): Box => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom });
    const visibleBox = (box: Box, clips: Clip[]): Box | null => {
      let b = plain(box);
      for (const c of clips) {
        if (c.x) b = { ...b, left: Math.max(b.left, c.box.left), right: Math.min(b.right, c.box.right) };
        if (c.y) b = { ...b, top: Math.max(b.top, c.box.top), bottom: Math.min(b.bottom, c.box.bottom) };
      }
      return b.right - b.left > 1 && b.bottom - b.top > 1 ? b : null;
    };
    const fullLabel = (el: Element, text: string) => {
      const want = text.replace(/\s+/g, ' ').trim();
      for (let a: Element | null = el; a && a !== document.body; a = a.parentElement) {
        const label = `${a.getAttribute('title') ?? ''} ${a.getAttribute('aria-label') ?? ''}`.replace(/\s+/g, ' ');
        if (want && label.includes(want)) return true;
      }
      return false;
    };
    /** A box cut by a clipping ancestor (not a scrolling one) or by the screen's right edge. */
    const checkCut = (el: Element | Text, box: Box, what: string) => {
      // text that ends in an ellipsis or a line clamp is judged by its label (below), not its box
      const own = el instanceof Text && el.parentElement ? el.parentElement : null;
      const clamped = own && (style(own).textOverflow === 'ellipsis' || style(own).webkitLineClamp !== 'none');
      const clips = clipsOf(el).filter((c) => !(clamped && c.el === own));
      if (clips.some((c) => c.strip)) return;
      if (!visibleBox(box, clips)) return; // clipped away entirely: not shown (closed or off-screen)
      for (const c of clips) {
        if (c.scrollsX) continue; // reported once, as the box that scrolls
        const cutX = c.x && (box.left < c.box.left - SLACK || box.right > c.box.right + SLACK);
        const cutY = c.y && !(style(c.el).overflowY === 'auto' || style(c.el).overflowY === 'scroll') && (box.top < c.box.top - SLACK || box.bottom > c.box.bottom + SLACK);
        if (cutX || cutY) {
          problems.add(`clipped: ${what} cut by ${name(c.el, '')} (${cutX ? 'sideways' : 'at the bottom or top'})`);
          return;
        }
      }
      if (box.right > vw + SLACK || box.left < -SLACK) problems.add(`clipped: ${what} past the screen's edge (${Math.round(box.left)}..${Math.round(box.right)} of ${vw})`);
    };

    // 1. text runs
    const texts: Array<{ node: Text; parent: Element; boxes: Box[] }> = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      const parent = n.parentElement;
      if (!parent || !n.data.trim() || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION'].includes(parent.tagName)) continue;
      if (parent.closest('svg')) continue;
      if (!rendered(parent) || hiddenByAria(parent)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const boxes = Array.from(range.getClientRects()).filter((r) => r.width > 1 && r.height > 1).map(plain);
      if (!boxes.length) continue;
      texts.push({ node: n, parent, boxes });
      const whole = parent.textContent ?? '';
      // a text whose whole wording is in an accessible label around it (a card preview's role="img" name) may be cut
      if (!fullLabel(parent, n.data)) for (const r of boxes) checkCut(n, r, name(parent, n.data));
      // an ellipsis or a line clamp: the text is cut where it is drawn, its box is not
      const s = style(parent);
      const clamped = s.textOverflow === 'ellipsis' || s.webkitLineClamp !== 'none';
      if (clamped && (parent.scrollWidth > parent.clientWidth + SLACK || parent.scrollHeight > parent.clientHeight + SLACK) && !fullLabel(parent, whole))
        problems.add(`clipped: ${name(parent, whole)} cut with an ellipsis, no full label (title or aria-label)`);
    }

    // 2. controls and images
    // a control's boxes: one per line for an inline one that wraps (its bounding box would cover the line's neighbours)
    const controls: Array<{ el: Element; boxes: Box[] }> = [];
    for (const el of Array.from(document.body.querySelectorAll(`${INTERACTIVE},img,svg,canvas,video`))) {
      if (!rendered(el) || hiddenByAria(el)) continue;
      if (el.parentElement?.closest('svg')) continue;
      const r = plain(el.getBoundingClientRect());
      if (r.right - r.left <= 1 || r.bottom - r.top <= 1) continue;
      const clips = clipsOf(el);
      if (el.matches('img,svg,canvas,video')) {
        // a decorative image (no alt) may bleed on purpose; an image with a meaning may not
        const meaningful = el.matches('img[alt]:not([alt=""]),svg[role="img"],canvas,video');
        if (meaningful) checkCut(el, r, name(el, el.getAttribute('alt') ?? ''));
        if (el instanceof HTMLImageElement && el.naturalWidth > 0 && style(el).objectFit === 'fill') {
          const drawn = (r.right - r.left) / (r.bottom - r.top);
          const own = el.naturalWidth / el.naturalHeight;
          if (Math.abs(drawn / own - 1) > 0.03) problems.add(`distorted: ${name(el, el.alt)} drawn at ${drawn.toFixed(2)}:1, its own ratio ${own.toFixed(2)}:1`);
        }
        continue;
      }
      checkCut(el, r, name(el));
      const inline = style(el).display === 'inline';
      const boxes = (inline ? Array.from(el.getClientRects()).map(plain) : [r]).map((b) => visibleBox(b, clips)).filter((b): b is Box => !!b);
      if (boxes.length) controls.push({ el, boxes });
    }

    // 3. boxes that scroll sideways and are not strips meant to scroll
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const s = style(el);
      if (s.overflowX !== 'auto' && s.overflowX !== 'scroll') continue;
      if (isStrip(el) || el.scrollWidth <= el.clientWidth + SLACK || !rendered(el) || hiddenByAria(el)) continue;
      if (el.clientWidth < 2 || el.clientHeight < 2) continue;
      problems.add(`scrolls sideways: ${name(el, '')} (${el.scrollWidth}px of content in ${el.clientWidth}px)`);
    }

    // 4. overlaps: control over control, control over text it does not hold
    const meet = (a: Box, b: Box) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
    const meetAny = (a: Box[], b: Box[]) => a.some((x) => b.some((y) => meet(x, y)));
    const inside = (a: Box, b: Box) => a.left >= b.left - 1 && a.right <= b.right + 1 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
    /** a button drawn inside a text field, beside it in the same wrapper (show password, clear): an adornment, on purpose */
    const adornment = (a: { el: Element; boxes: Box[] }, b: { el: Element; boxes: Box[] }) => {
      const field = (x: Element) => x.matches('input,textarea');
      const [f, c] = field(a.el) ? [a, b] : field(b.el) ? [b, a] : [null, null];
      return !!f && !!c && !field(c.el) && f.el.parentElement === c.el.parentElement && c.boxes.every((x) => inside(x, f.boxes[0]));
    };
    const related = (a: Element, b: Element) => {
      if (a.contains(b) || b.contains(a)) return true;
      const label = (x: Element) => x.closest('label');
      const la = label(a);
      const lb = label(b);
      if ((la && la.contains(b)) || (lb && lb.contains(a))) return true;
      const forOf = (x: Element) => (x instanceof HTMLLabelElement ? x.htmlFor : '');
      return (!!forOf(a) && forOf(a) === b.id) || (!!forOf(b) && forOf(b) === a.id);
    };
    for (let i = 0; i < controls.length; i++) {
      for (let j = i + 1; j < controls.length; j++) {
        const a = controls[i];
        const b = controls[j];
        if (meetAny(a.boxes, b.boxes) && !related(a.el, b.el) && !adornment(a, b)) problems.add(`overlap: ${name(a.el)} and ${name(b.el)}`);
      }
    }
    for (const t of texts) {
      // the text of a control: its control's box is compared above
      if (t.parent.closest(INTERACTIVE)) continue;
      for (const c of controls) {
        if (c.el.contains(t.parent) || related(c.el, t.parent)) continue;
        const labelOf = t.parent.closest('label');
        if (labelOf && (labelOf.contains(c.el) || (labelOf.htmlFor && labelOf.htmlFor === c.el.id))) continue;
        const clips = clipsOf(t.node);
        if (t.boxes.some((r) => {
          const vis = visibleBox(r, clips);
          return !!vis && c.boxes.some((b) => meet(vis, b));
        }))
          problems.add(`overlap: ${name(c.el)} over the text ${name(t.parent, t.node.data)}`);
      }
    }
    return [...problems];
  }, phoneWidth);
}
