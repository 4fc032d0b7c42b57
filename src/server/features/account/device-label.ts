/** A short human label for a session's user agent, e.g. "Chrome on Windows". Best effort, never throws. */
export function deviceLabel(userAgent: string): string {
  const ua = userAgent || '';
  if (!ua.trim()) return 'Unknown device';

  const browser =
    /Edg(e|A|iOS)?\//.test(ua)
      ? 'Edge'
      : /OPR\/|Opera/.test(ua)
        ? 'Opera'
        : /SamsungBrowser\//.test(ua)
          ? 'Samsung Internet'
          : /Firefox\/|FxiOS\//.test(ua)
            ? 'Firefox'
            : /Chrome\/|CriOS\/|Chromium\//.test(ua)
              ? 'Chrome'
              : /Safari\//.test(ua) && /Version\//.test(ua)
                ? 'Safari'
                : /curl\//i.test(ua)
                  ? 'curl'
                  : 'Browser';

  const os = /iPhone|iPad|iPod/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : /Mac OS X|Macintosh/.test(ua)
            ? 'macOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';

  return os ? `${browser} on ${os}` : browser;
}
