/** Who is looking: device class for analytics, and whether it is a bot (bots are never counted). */

export type Device = 'Mobile' | 'Desktop' | 'Unknown';

const MOBILE = /Mobi|Android|iPhone|iPad|iPod|Windows Phone|BlackBerry|BB10|Opera Mini|IEMobile|Silk|KaiOS/i;
const DESKTOP = /Windows NT|Macintosh|Mac OS X|X11|Linux x86_64|CrOS|Ubuntu|Fedora/i;

export function deviceOf(userAgent: string | undefined | null): Device {
  const ua = userAgent ?? '';
  if (!ua) return 'Unknown';
  if (MOBILE.test(ua)) return 'Mobile';
  if (DESKTOP.test(ua)) return 'Desktop';
  return 'Unknown';
}

// crawlers, link-preview fetchers, monitors, scripts and headless browsers
const BOT =
  /bot\b|bot\/|crawl|spider|slurp|scrap|fetch|preview|facebookexternalhit|facebookcatalog|embedly|quora link|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegram|skype|discord|slack|bitly|tumblr|redditbot|applebot|bingpreview|yandex|baidu|duckduck|semrush|ahrefs|mj12|petal|bytespider|gptbot|chatgpt|claude|anthropic|perplexity|ccbot|lighthouse|pagespeed|pingdom|uptime|monitor|statuscake|headless|phantomjs|puppeteer|playwright|selenium|curl\/|wget\/|python|httpclient|okhttp|axios|node-fetch|undici|go-http|java\/|libwww|httpie|postman|insomnia|autocannon|wrk|apachebench|\bab\//i;

export function isBot(userAgent: string | undefined | null): boolean {
  const ua = (userAgent ?? '').trim();
  if (ua.length < 10) return true;
  return BOT.test(ua);
}

/** A public-page event (a view, a link click, a contact save). */
export type PageEvent =
  | { kind: 'visit'; profileId: string; at: Date; userAgent: string; device: string; source: string; cardCode?: string | null }
  | { kind: 'click'; profileId: string; at: Date; linkId: number; linkType: string }
  | { kind: 'save'; profileId: string; at: Date };
