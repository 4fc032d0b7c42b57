import { metalBackground, qrPlaceholder, svgOpen } from './common';

/** 18 Modern: bold Montserrat capitals, JetBrains Mono details, angled panel; green QR frame. */
const SANS = 'Montserrat, sans-serif';
const MONO = 'JetBrains Mono, monospace';
const GREEN = '#22c55e';

export const modernFront =
  svgOpen('Modern business card, front') +
  metalBackground() +
  `<polygon points="700,0 1050,0 1050,600 560,600" fill="#161616"/>` +
  `<line x1="700" y1="0" x2="560" y2="600" stroke="#ffffff" stroke-opacity="0.4" stroke-width="1.5"/>` +
  `<line x1="726" y1="0" x2="586" y2="600" stroke="#ffffff" stroke-opacity="0.12" stroke-width="1"/>` +
  `<g data-slot="logo" data-x="760" data-y="220" data-width="220" data-height="160" data-align="center">` +
  `<rect x="810" y="240" width="120" height="120" fill="none" stroke="#ffffff" stroke-opacity="0.8" stroke-width="1.5"/>` +
  `<text x="870" y="322" text-anchor="middle" font-family="${SANS}" font-weight="700" font-size="48" letter-spacing="2" fill="#ffffff">{{initials}}</text>` +
  `</g>` +
  `<text data-field="fullName" data-transform="uppercase" data-fit="wrap" data-max-lines="2" data-max-width="500" data-min-size="22" data-line-height="1.1" data-grow="up" x="80" y="262" font-family="${SANS}" font-weight="700" font-size="48" letter-spacing="2" fill="#ffffff">FULL NAME</text>` +
  `<rect x="80" y="290" width="56" height="4" fill="${GREEN}"/>` +
  `<text data-field="jobTitle" data-max-width="480" data-min-size="12" x="80" y="344" font-family="${MONO}" font-weight="400" font-size="20" fill="#d0d0d0">Job Title</text>` +
  `<text data-field="companyName" data-transform="uppercase" data-max-width="460" data-min-size="10" x="80" y="522" font-family="${MONO}" font-weight="500" font-size="16" letter-spacing="3" fill="#9a9a9a">Company</text>` +
  `</svg>`;

const label = (t: string) => `data-label="${t}" data-label-x="470" data-label-size="17" data-label-font-weight="500" data-label-fill="${GREEN}"`;

export const modernBack =
  svgOpen('Modern business card, back') +
  metalBackground() +
  `<polygon points="0,0 420,0 330,600 0,600" fill="#161616"/>` +
  `<line x1="420" y1="0" x2="330" y2="600" stroke="#ffffff" stroke-opacity="0.4" stroke-width="1.5"/>` +
  `<g data-slot="qr" data-x="62" data-y="160" data-size="256" data-qr-border="${GREEN}" data-qr-border-width="2" data-qr-border-pad="10" data-qr-border-radius="2">${qrPlaceholder(62, 160, 256, SANS)}</g>` +
  `<text data-field="profileUrl" data-max-width="250" data-min-size="10" x="190" y="458" text-anchor="middle" font-family="${MONO}" font-weight="400" font-size="14" fill="#9a9a9a">profile</text>` +
  `<text data-if-not="profileUrl" x="190" y="458" text-anchor="middle" font-family="${MONO}" font-weight="500" font-size="14" letter-spacing="3" fill="#9a9a9a">SCAN ME</text>` +
  `<text data-field="fullName" data-transform="uppercase" data-max-width="500" data-min-size="14" x="470" y="112" font-family="${SANS}" font-weight="700" font-size="24" letter-spacing="3" fill="#ffffff">FULL NAME</text>` +
  `<g data-stack="contact" data-gap="48" data-valign="middle" data-center-y="326">` +
  `<text data-field="email" ${label('@')} data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="470" data-min-size="12" x="505" y="230" font-family="${MONO}" font-weight="400" font-size="20" fill="#f0f0f0">email</text>` +
  `<text data-field="phoneNumber" ${label('T')} data-max-width="470" data-min-size="12" x="505" y="278" font-family="${MONO}" font-weight="400" font-size="20" fill="#f0f0f0">phone</text>` +
  `<text data-field="website" ${label('W')} data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="470" data-min-size="12" x="505" y="326" font-family="${MONO}" font-weight="400" font-size="20" fill="#f0f0f0">website</text>` +
  `<text data-field="linkedinUrl" ${label('in')} data-max-width="470" data-min-size="11" x="505" y="374" font-family="${MONO}" font-weight="400" font-size="18" fill="#d0d0d0">linkedin</text>` +
  `<text data-field="address" ${label('A')} data-fit="wrap" data-max-lines="2" data-max-width="470" data-min-size="12" data-line-height="1.35" x="505" y="422" font-family="${MONO}" font-weight="400" font-size="18" fill="#d0d0d0">address</text>` +
  `</g>` +
  `</svg>`;
