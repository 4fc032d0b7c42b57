// Paths that `npm run dev` sends from Vite's dev server to the API server. Vite matches proxy keys
// as plain prefixes, so every key but "/metrics" (a single route) ends with "/": "/fonts" would
// also catch Vite's own "/fonts.css" module request. tests/build/dev-proxy.test.ts keeps this list and the server's
// routes in step.
// A key starting with "^" is a regular expression (Vite's rule): the profile handles /@{handle}
// (decision 37-04), but not Vite's own /@vite/..., /@fs/..., /@id/... and /@react-refresh.
export const devProxyPaths = ['/api/', '/scim/', '/p/', '/c/', '/C/', '/files/', '/fonts/', '/templates/svg/', '/metrics', '^/@(?!react-refresh)[A-Za-z0-9_-]+(?:[?#]|$)'];

export function devProxy(target) {
  return Object.fromEntries(devProxyPaths.map((p) => [p, { target, changeOrigin: false }]));
}
