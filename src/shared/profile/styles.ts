/**
 * The public profile's whole stylesheet: small enough to inline in the server-rendered page
 * (no web fonts, no framework CSS), shared by the SPA's client-side render of the same layouts.
 * Every class is prefixed `pp-` so it cannot clash with the app's Tailwind classes.
 */
export const PROFILE_CSS = `
.pp-page{margin:0;min-height:100vh;background:#f3f4f6;color:#111827;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-font-smoothing:antialiased;display:flex;flex-direction:column;align-items:center;padding:0 0 32px;box-sizing:border-box}
.pp-page *,.pp-page *::before,.pp-page *::after{box-sizing:border-box}
.pp-bar{width:100%;max-width:480px;padding:12px 16px 0}
.pp-back{display:inline-flex;align-items:center;gap:6px;padding:8px 14px;border-radius:999px;background:#111827;color:#fff;text-decoration:none;font-size:14px;font-weight:600}
.pp-card{width:100%;max-width:480px;background:#fff;overflow:hidden;box-shadow:0 10px 30px rgba(17,24,39,.12)}
@media (min-width:520px){.pp-page{padding-top:32px}.pp-card{border-radius:24px}}
.pp-header{position:relative;height:140px;display:flex;align-items:flex-start;justify-content:center;padding:18px 16px}
.pp-header-logo{max-height:48px;max-width:70%;object-fit:contain}
.pp-body{padding:0 24px 28px;text-align:center}
.pp-photo{display:block;width:128px;height:128px;border-radius:50%;object-fit:cover;margin:-64px auto 0;border:4px solid #fff;background:#e5e7eb;position:relative}
.pp-initials{display:flex;align-items:center;justify-content:center;font-size:44px;font-weight:700;color:#fff;background:#6b7280}
.pp-name{margin:16px 0 0;font-size:28px;line-height:1.2;font-weight:800;letter-spacing:-.01em;overflow-wrap:anywhere}
.pp-title{margin:4px 0 0;font-size:17px;color:#4b5563}
.pp-company{margin:2px 0 0;font-size:15px;color:#6b7280;font-weight:600}
.pp-save{display:flex;align-items:center;justify-content:center;gap:10px;width:100%;margin:22px 0 0;padding:16px 20px;border:0;border-radius:14px;font-size:18px;font-weight:700;color:#fff;text-decoration:none;background:#111827;min-height:56px}
.pp-save:focus-visible,.pp-link:focus-visible,.pp-row a:focus-visible,.pp-back:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.pp-rows{list-style:none;margin:22px 0 0;padding:0;text-align:left;border-top:1px solid #e5e7eb}
.pp-row{display:flex;align-items:flex-start;gap:12px;padding:12px 4px;border-bottom:1px solid #e5e7eb;overflow-wrap:anywhere}
.pp-row svg{flex:none;margin-top:2px;color:#6b7280}
.pp-row a{color:inherit;text-decoration:none}
.pp-row-label{display:block;font-size:12px;text-transform:uppercase;letter-spacing:.06em;color:#6b7280}
.pp-links{display:grid;gap:10px;margin:22px 0 0}
.pp-link{display:flex;align-items:center;justify-content:center;gap:8px;padding:13px 16px;border-radius:12px;font-weight:600;text-decoration:none;border:2px solid #111827;color:#111827;background:#fff;min-height:48px}
.pp-extra{margin:22px 0 0;text-align:left}
.pp-share{display:flex;flex-wrap:wrap;align-items:center;justify-content:center;gap:8px 12px;margin:18px 0 0;font-size:14px}
.pp-share-url{color:#4b5563;overflow-wrap:anywhere}
.pp-share-btn{display:inline-flex;align-items:center;gap:6px;min-height:44px;padding:8px 16px;border:1px solid #d1d5db;border-radius:999px;background:#fff;color:#111827;font:inherit;font-weight:600;cursor:pointer}
.pp-share-btn[hidden]{display:none}
.pp-share-btn:focus-visible,.pp-share-url:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.pp-foot{margin:24px 0 0;font-size:13px;color:#4b5563;text-align:center}
.pp-tel{white-space:nowrap}
.pp-foot a{color:inherit}
.pp-classic .pp-header{background:linear-gradient(135deg,#1e3a8a,#2563eb 55%,#60a5fa)}
.pp-classic .pp-save{background:#1d4ed8}
.pp-classic .pp-link{border-color:#1d4ed8;color:#1d4ed8}
.pp-classic .pp-row svg{color:#2563eb}
.pp-modern .pp-header{background:linear-gradient(135deg,#7c3aed,#c026d3 50%,#ec4899)}
.pp-modern .pp-photo{border-radius:28px}
.pp-modern .pp-save{background:linear-gradient(90deg,#6d28d9,#be185d)}
.pp-modern .pp-link{border:0;color:#fff;background:linear-gradient(90deg,#7c3aed,#be185d)}
.pp-modern .pp-row svg{color:#a21caf}
.pp-minimal .pp-header{height:56px;background:#fff}
.pp-minimal .pp-photo{margin-top:0;width:112px;height:112px;border:0}
.pp-minimal .pp-name{font-weight:600}
.pp-minimal .pp-save{background:#111827;border-radius:8px}
.pp-minimal .pp-link{border-width:1px;border-color:#d1d5db;border-radius:8px}
.pp-creative{background:linear-gradient(160deg,#fff7ed,#fce7f3)}
.pp-creative .pp-header{height:160px;background:linear-gradient(120deg,#f97316,#f43f5e 55%,#ec4899);clip-path:polygon(0 0,100% 0,100% 78%,0 100%)}
.pp-creative .pp-photo{border-radius:32px;transform:rotate(-4deg);border-color:#fde68a}
.pp-creative .pp-name{font-size:32px;font-weight:900;background:linear-gradient(90deg,#ea580c,#db2777);-webkit-background-clip:text;background-clip:text;color:transparent}
.pp-creative .pp-save{background:linear-gradient(90deg,#c2410c,#be185d);border-radius:999px}
.pp-creative .pp-link{border-color:#f97316;color:#c2410c;border-radius:999px}
.pp-creative .pp-row svg{color:#ea580c}
.pp-corporate .pp-header{background:#111827;justify-content:flex-start;height:120px;padding:16px 24px}
.pp-corporate .pp-header-logo{max-height:44px;max-width:60%}
.pp-corporate .pp-header-name{color:#e5e7eb;font-weight:700;letter-spacing:.08em;text-transform:uppercase;font-size:14px}
.pp-corporate .pp-photo{border-radius:12px;margin-top:-48px;width:112px;height:112px}
.pp-corporate .pp-body{text-align:left}
.pp-corporate .pp-photo{margin-right:0}
.pp-corporate .pp-save{background:#1f2937;border-radius:8px}
.pp-corporate .pp-link{border-color:#1f2937;border-radius:8px;justify-content:flex-start}
.pp-corporate .pp-row svg{color:#374151}
.pp-page.pp-branded .pp-header{background:var(--pp-primary)}
.pp-page.pp-branded .pp-save{background:var(--pp-primary)}
.pp-page.pp-branded .pp-link{border-color:var(--pp-accent);color:var(--pp-accent);background:#fff}
.pp-page.pp-branded .pp-row svg{color:var(--pp-accent)}
.pp-missing{max-width:480px;margin:15vh auto 0;padding:32px 24px;text-align:center;background:#fff;border-radius:24px;box-shadow:0 10px 30px rgba(17,24,39,.12)}
.pp-missing h1{margin:0 0 8px;font-size:26px}
.pp-missing p{margin:0 0 20px;color:#4b5563}
.pp-missing a{display:inline-block;padding:12px 20px;border-radius:12px;background:#111827;color:#fff;text-decoration:none;font-weight:600}
.pp-missing .pp-rows{margin:0}.pp-missing .pp-rows a{display:inline;padding:0;border-radius:0;background:none;color:#111827;text-decoration:underline;font-weight:600}
`
  .replace(/\n/g, '')
  .trim();
