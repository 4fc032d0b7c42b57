/**
 * Styles of the contact exchange form (`ce-` classes), inlined in the server-rendered profile
 * page next to PROFILE_CSS and used by the SPA's render of the same page. Neutral colours that
 * sit well on all five layouts; about 2 KB before gzip.
 */
export const CONTACT_EXCHANGE_CSS = `
.ce{margin:22px 0 0;border:1px solid #e5e7eb;border-radius:14px;background:#fff;text-align:left}
.ce-summary{cursor:pointer;padding:14px 16px;font-weight:700;font-size:16px;list-style-position:inside}
.ce-summary:focus-visible,.ce-input:focus-visible,.ce-submit:focus-visible,.ce-consent input:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.ce-form,.ce-sent{padding:0 16px 16px}
.ce-intro{margin:0 0 12px;font-size:14px;color:#4b5563}
.ce-field{display:block;margin:0 0 12px}
.ce-label{display:block;margin:0 0 4px;font-size:14px;font-weight:600;color:#374151}
.ce-input{display:block;width:100%;padding:10px 12px;border:1px solid #9ca3af;border-radius:10px;font:inherit;color:#111827;background:#fff;min-height:44px}
textarea.ce-input{resize:vertical}
.ce-input[aria-invalid=true]{border-color:#b91c1c}
.ce-error{display:block;margin:4px 0 0;font-size:13px;color:#b91c1c}
.ce-message{margin:0 0 12px;font-weight:600}
.ce-consent{display:flex;gap:10px;align-items:flex-start;margin:4px 0 0;font-size:14px;color:#374151}
.ce-consent input{width:20px;height:20px;margin:1px 0 0;flex:none}
.ce-submit{display:block;width:100%;margin:14px 0 0;padding:13px 16px;border:0;border-radius:12px;font:inherit;font-weight:700;color:#fff;background:#111827;cursor:pointer;min-height:48px}
.ce-submit[disabled]{opacity:.6;cursor:default}
.ce-legal{margin:10px 0 0;font-size:13px;color:#4b5563}
.ce-legal a{color:#111827;text-decoration:underline}
.ce-sent{font-weight:600;color:#065f46}
.ce-sent p{margin:0 0 8px}
.ce-hp{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
`
  .replace(/\n/g, '')
  .trim();
