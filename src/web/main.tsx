// The entry: styles (extracted into the page's one stylesheet) and a few lines that load the
// application (boot.tsx). A prerendered page (the home page, see scripts/build-web.mjs) is painted
// first and its code fetched right after that first paint, so the HTML, CSS and font alone decide
// how fast it shows and the scripts never compete with them for the network; every other page
// loads the application at once (its shell preloads it).
import './fonts.css';
import './styles.css';
import { holdEarlyClicks } from '#web/lib/early-clicks';

/** The page chunks of prerendered pages, fetched beside the application instead of after it. */
const PRERENDERED_PAGES: Record<string, () => Promise<unknown>> = { '/': () => import('#web/routes/home') };

let started = false;
function start() {
  if (started) return;
  started = true;
  void PRERENDERED_PAGES[window.location.pathname]?.();
  void import('./boot');
}

if (document.getElementById('root')?.dataset.prerendered) {
  // a tap on a button before hydration is given again after it (lib/early-clicks.ts)
  holdEarlyClicks();
  // start once the browser reports the first contentful paint of the HTML (Paint Timing)
  try {
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      setTimeout(start, 0);
    });
    observer.observe({ type: 'paint', buffered: true });
  } catch {
    start();
  }
  // no paint report (older browsers, a tab opened in the background): start anyway
  setTimeout(start, 1000);
} else {
  start();
}
