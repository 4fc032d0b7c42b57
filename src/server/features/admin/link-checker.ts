/**
 * Crawls the site's own pages: starts from a list of paths, follows every same-origin link, script,
 * stylesheet and image found in HTML answers, and records each address's HTTP status. It never
 * leaves the site (other hosts, mailto:, tel: and the like are skipped) and stops at `maxPages`.
 */
export interface FetchedPage {
  statusCode: number;
  contentType: string;
  body: string;
}
export type PageFetcher = (path: string) => Promise<FetchedPage>;

export interface CrawlEntry {
  url: string;
  status: number;
  /** the page that linked here (absent for start paths) */
  from?: string;
}

export interface CrawlResult {
  totalPages: number;
  okPages: number;
  entries: CrawlEntry[];
  truncated: boolean;
}

const ATTR_RE = /<(a|link|script|img|source|iframe)\b[^>]*?\s(href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi;
const SKIP_SCHEME = /^(mailto:|tel:|sms:|javascript:|data:|blob:|about:)/i;

function decodeEntities(s: string) {
  return s.replace(/&amp;/g, '&').replace(/&#x2F;/gi, '/').replace(/&#47;/g, '/').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

/** Same-origin paths (with query, without hash) linked from an HTML document at `pagePath`. */
export function extractLinks(html: string, pagePath: string, origin: string): string[] {
  const base = new URL(pagePath, origin);
  const out = new Set<string>();
  for (const m of html.matchAll(ATTR_RE)) {
    const raw = decodeEntities((m[3] ?? m[4] ?? m[5] ?? '').trim());
    if (!raw || raw.startsWith('#') || SKIP_SCHEME.test(raw)) continue;
    let u: URL;
    try {
      u = new URL(raw, base);
    } catch {
      continue;
    }
    if (u.origin !== base.origin || (u.protocol !== 'http:' && u.protocol !== 'https:')) continue;
    out.add(u.pathname + u.search);
  }
  return [...out];
}

export async function crawlSite(fetchPage: PageFetcher, opts: { start: string[]; origin: string; maxPages?: number; deadlineMs?: number }): Promise<CrawlResult> {
  const maxPages = opts.maxPages ?? 300;
  const deadline = Date.now() + (opts.deadlineMs ?? 30_000);
  const queue: Array<{ path: string; from?: string }> = [];
  const seen = new Set<string>();
  const push = (path: string, from?: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    queue.push({ path, from });
  };
  for (const p of opts.start) push(p);

  const entries: CrawlEntry[] = [];
  let truncated = false;
  while (queue.length) {
    if (entries.length >= maxPages || Date.now() > deadline) {
      truncated = true;
      break;
    }
    const { path, from } = queue.shift()!;
    let res: FetchedPage;
    try {
      res = await fetchPage(path);
    } catch {
      res = { statusCode: 0, contentType: '', body: '' };
    }
    entries.push({ url: path, status: res.statusCode, ...(from ? { from } : {}) });
    if (res.statusCode >= 200 && res.statusCode < 300 && /text\/html/i.test(res.contentType)) {
      for (const link of extractLinks(res.body, path, opts.origin)) push(link, path);
    }
  }
  const okPages = entries.filter((e) => e.status >= 200 && e.status < 400).length;
  return { totalPages: entries.length, okPages, entries, truncated };
}
