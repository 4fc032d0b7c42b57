import { escapeHtml } from '#server/http/html-page';

/** The brand's e-mail look: one function makes the plain-text and HTML parts from the same content. */
export interface EmailContent {
  preheader?: string;
  heading: string;
  paragraphs: string[];
  /** label/value rows, e.g. an order summary */
  rows?: Array<[string, string]>;
  button?: { label: string; url: string };
  footer?: string;
}

export function renderEmail(c: EmailContent): { text: string; html: string } {
  const text = [
    c.heading,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.rows?.length ? [...c.rows.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(c.button ? [`${c.button.label}: ${c.button.url}`, ''] : []),
    '--',
    c.footer ?? 'Metal Cards NYC · Premium metal business cards made in New York',
  ].join('\n');

  const rows = c.rows?.length
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:16px 0;border-collapse:collapse">${c.rows
        .map(
          ([k, v]) =>
            `<tr><td style="padding:6px 0;color:#8a8f98;font-size:14px;width:40%">${escapeHtml(k)}</td><td style="padding:6px 0;color:#f5f5f5;font-size:14px;font-weight:600">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const button = c.button
    ? `<p style="margin:24px 0"><a href="${escapeHtml(c.button.url)}" style="display:inline-block;background:#d4af37;color:#111;text-decoration:none;font-weight:700;padding:12px 22px;border-radius:6px">${escapeHtml(c.button.label)}</a></p>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(c.heading)}</title></head>
<body style="margin:0;background:#0b0b0c;font-family:Helvetica,Arial,sans-serif">
${c.preheader ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(c.preheader)}</div>` : ''}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#0b0b0c"><tr><td align="center" style="padding:32px 12px">
<table role="presentation" width="560" cellpadding="0" cellspacing="0" style="max-width:560px;width:100%;background:#16171a;border:1px solid #2a2b30;border-radius:10px">
<tr><td style="padding:20px 28px;border-bottom:1px solid #2a2b30;color:#d4af37;font-size:13px;letter-spacing:3px;font-weight:700">METAL CARDS NYC</td></tr>
<tr><td style="padding:28px">
<h1 style="margin:0 0 16px;color:#ffffff;font-size:22px">${escapeHtml(c.heading)}</h1>
${c.paragraphs.map((p) => `<p style="margin:0 0 12px;color:#d0d2d6;font-size:15px;line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${rows}${button}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #2a2b30;color:#8a8f98;font-size:12px">${escapeHtml(c.footer ?? 'Metal Cards NYC · Premium metal business cards made in New York')}</td></tr>
</table></td></tr></table></body></html>`;
  return { text, html };
}
