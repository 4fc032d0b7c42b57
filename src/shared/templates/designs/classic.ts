import { metalBackground, qrPlaceholder, svgOpen } from './common';

/** 16 Classic: centred, framed, Playfair Display with Inter small caps; green QR frame. */
const SERIF = 'Playfair Display, serif';
const SANS = 'Inter, sans-serif';

const frame =
  `<rect x="28" y="28" width="994" height="544" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="1.5"/>` +
  `<rect x="40" y="40" width="970" height="520" fill="none" stroke="#ffffff" stroke-opacity="0.22" stroke-width="0.75"/>`;

export const classicFront =
  svgOpen('Classic business card, front') +
  metalBackground() +
  frame +
  `<g data-slot="logo" data-x="445" data-y="70" data-width="160" data-height="104" data-align="center">` +
  `<circle cx="525" cy="122" r="44" fill="none" stroke="#ffffff" stroke-opacity="0.8" stroke-width="1.2"/>` +
  `<text x="525" y="134" text-anchor="middle" font-family="${SERIF}" font-weight="600" font-size="32" letter-spacing="1" fill="#ffffff">{{initials}}</text>` +
  `</g>` +
  `<text data-field="fullName" data-fit="wrap" data-max-lines="2" data-max-width="820" data-min-size="36" data-line-height="1.12" data-grow="up" x="525" y="318" text-anchor="middle" font-family="${SERIF}" font-weight="600" font-size="60" fill="#ffffff">Full Name</text>` +
  `<g opacity="0.7"><rect x="440" y="351" width="70" height="1" fill="#ffffff"/><rect x="519" y="346" width="11" height="11" transform="rotate(45 524.5 351.5)" fill="none" stroke="#ffffff" stroke-width="1"/><rect x="540" y="351" width="70" height="1" fill="#ffffff"/></g>` +
  `<text data-field="jobTitle" data-transform="uppercase" data-max-width="780" data-min-size="11" x="525" y="404" text-anchor="middle" font-family="${SANS}" font-weight="400" font-size="19" letter-spacing="6" fill="#cfcfcf">Job Title</text>` +
  `<text data-field="companyName" data-max-width="780" data-min-size="15" x="525" y="462" text-anchor="middle" font-family="${SERIF}" font-style="italic" font-weight="400" font-size="27" fill="#e5e5e5">Company</text>` +
  `</svg>`;

const label = (t: string) => `data-label="${t}" data-label-x="96" data-label-size="12" data-label-font-family="${SANS}" data-label-font-weight="600" data-label-letter-spacing="3" data-label-fill="#9a9a9a"`;

export const classicBack =
  svgOpen('Classic business card, back') +
  metalBackground() +
  frame +
  `<text data-field="fullName" data-max-width="540" data-min-size="18" x="96" y="128" font-family="${SERIF}" font-weight="600" font-size="32" fill="#ffffff">Full Name</text>` +
  `<rect x="96" y="150" width="60" height="1" fill="#ffffff" opacity="0.6"/>` +
  `<g data-stack="contact" data-gap="48" data-valign="middle" data-center-y="330">` +
  `<text data-field="email" ${label('EMAIL')} data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="440" data-min-size="14" x="206" y="240" font-family="${SANS}" font-weight="400" font-size="22" fill="#f2f2f2">email</text>` +
  `<text data-field="phoneNumber" ${label('PHONE')} data-max-width="440" data-min-size="14" x="206" y="288" font-family="${SANS}" font-weight="400" font-size="22" fill="#f2f2f2">phone</text>` +
  `<text data-field="website" ${label('WEB')} data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="440" data-min-size="14" x="206" y="336" font-family="${SANS}" font-weight="400" font-size="22" fill="#f2f2f2">website</text>` +
  `<text data-field="linkedinUrl" ${label('LINKEDIN')} data-max-width="440" data-min-size="13" x="206" y="384" font-family="${SANS}" font-weight="400" font-size="20" fill="#dcdcdc">linkedin</text>` +
  `<text data-field="address" ${label('ADDRESS')} data-fit="wrap" data-max-lines="2" data-max-width="440" data-min-size="14" data-line-height="1.3" x="206" y="432" font-family="${SANS}" font-weight="400" font-size="20" fill="#dcdcdc">address</text>` +
  `</g>` +
  `<g data-slot="qr" data-x="700" data-y="150" data-size="256" data-qr-border="#22c55e" data-qr-border-width="2" data-qr-border-pad="10" data-qr-border-radius="4">${qrPlaceholder(700, 150, 256, SANS)}</g>` +
  `<text x="828" y="450" text-anchor="middle" font-family="${SERIF}" font-style="italic" font-weight="400" font-size="19" fill="#cfcfcf">Scan to connect</text>` +
  `</svg>`;
