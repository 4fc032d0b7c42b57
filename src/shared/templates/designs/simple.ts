import { metalBackground, qrPlaceholder, svgOpen } from './common';

/** 17 Simple (the default): clean Montserrat, left accent bar, lettered contact lines. */
const F = 'Montserrat, sans-serif';

export const simpleFront =
  svgOpen('Simple business card, front') +
  metalBackground() +
  `<g data-slot="logo" data-x="790" data-y="70" data-width="180" data-height="100" data-align="right">` +
  `<text x="970" y="132" text-anchor="end" font-family="${F}" font-weight="700" font-size="40" letter-spacing="3" fill="#ffffff">{{initials}}</text>` +
  `<rect x="922" y="148" width="48" height="3" fill="#ffffff" opacity="0.7"/>` +
  `</g>` +
  `<rect x="80" y="226" width="3" height="112" fill="#ffffff"/>` +
  `<text data-field="fullName" data-fit="wrap" data-max-lines="2" data-max-width="840" data-min-size="32" data-line-height="1.1" data-grow="up" x="110" y="276" font-family="${F}" font-weight="600" font-size="54" fill="#ffffff">Full Name</text>` +
  `<text data-field="jobTitle" data-max-width="840" data-min-size="13" x="110" y="324" font-family="${F}" font-weight="400" font-size="23" letter-spacing="1" fill="#c9c9c9">Job Title</text>` +
  `<text data-field="companyName" data-transform="uppercase" data-max-width="640" data-min-size="11" x="80" y="522" font-family="${F}" font-weight="600" font-size="17" letter-spacing="6" fill="#ffffff">Company</text>` +
  `</svg>`;

const label = (t: string) => `data-label="${t}" data-label-x="80" data-label-size="18" data-label-font-weight="700" data-label-fill="#8a8a8a"`;

export const simpleBack =
  svgOpen('Simple business card, back') +
  metalBackground() +
  `<text data-field="companyName" data-transform="uppercase" data-max-width="600" data-min-size="10" x="80" y="108" font-family="${F}" font-weight="600" font-size="15" letter-spacing="6" fill="#9a9a9a">Company</text>` +
  `<g data-stack="contact" data-gap="50" data-valign="middle" data-center-y="318">` +
  `<text data-field="email" ${label('E')} data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="560" data-min-size="14" x="118" y="230" font-family="${F}" font-weight="400" font-size="23" fill="#f5f5f5">email</text>` +
  `<text data-field="phoneNumber" ${label('T')} data-max-width="560" data-min-size="14" x="118" y="280" font-family="${F}" font-weight="400" font-size="23" fill="#f5f5f5">phone</text>` +
  `<text data-field="website" ${label('W')} data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="560" data-min-size="14" x="118" y="330" font-family="${F}" font-weight="400" font-size="23" fill="#f5f5f5">website</text>` +
  `<text data-field="linkedinUrl" ${label('in')} data-max-width="560" data-min-size="13" x="118" y="380" font-family="${F}" font-weight="400" font-size="21" fill="#d6d6d6">linkedin</text>` +
  `<text data-field="address" ${label('A')} data-fit="wrap" data-max-lines="2" data-max-width="560" data-min-size="14" data-line-height="1.3" x="118" y="430" font-family="${F}" font-weight="400" font-size="21" fill="#d6d6d6">address</text>` +
  `</g>` +
  `<g data-slot="qr" data-x="714" data-y="168" data-size="256">${qrPlaceholder(714, 168, 256, F)}</g>` +
  `<text x="842" y="452" text-anchor="middle" font-family="${F}" font-weight="500" font-size="14" letter-spacing="3" fill="#9a9a9a">SCAN TO SAVE CONTACT</text>` +
  `</svg>`;
