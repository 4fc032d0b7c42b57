import { metalBackground, qrPlaceholder, svgOpen } from './common';

/** 15 Minimal: quiet, left-aligned, generous space; Inter Light. */
const F = 'Inter, sans-serif';

export const minimalFront =
  svgOpen('Minimal business card, front') +
  metalBackground() +
  `<g data-slot="logo" data-x="80" data-y="72" data-width="150" data-height="96" data-align="left">` +
  `<rect x="80" y="80" width="72" height="72" fill="none" stroke="#ffffff" stroke-opacity="0.85" stroke-width="1.5"/>` +
  `<text x="116" y="125" text-anchor="middle" font-family="${F}" font-weight="500" font-size="24" letter-spacing="2" fill="#ffffff">{{initials}}</text>` +
  `</g>` +
  `<text data-field="companyName" data-transform="uppercase" data-max-width="560" data-min-size="11" x="970" y="124" text-anchor="end" font-family="${F}" font-weight="500" font-size="17" letter-spacing="5" fill="#d4d4d4">Company</text>` +
  `<text data-field="fullName" data-fit="wrap" data-max-lines="2" data-max-width="890" data-min-size="34" data-line-height="1.12" data-grow="up" x="80" y="438" font-family="${F}" font-weight="300" font-size="58" letter-spacing="0.5" fill="#ffffff">Full Name</text>` +
  `<rect x="80" y="468" width="80" height="1.5" fill="#ffffff" opacity="0.6"/>` +
  `<text data-field="jobTitle" data-transform="uppercase" data-max-width="890" data-min-size="11" x="80" y="514" font-family="${F}" font-weight="400" font-size="18" letter-spacing="5" fill="#a3a3a3">Job Title</text>` +
  `</svg>`;

export const minimalBack =
  svgOpen('Minimal business card, back') +
  metalBackground() +
  `<text data-field="fullName" data-transform="uppercase" data-max-width="560" data-min-size="11" x="80" y="108" font-family="${F}" font-weight="500" font-size="15" letter-spacing="5" fill="#8f8f8f">Full Name</text>` +
  `<g data-stack="contact" data-gap="50" data-valign="middle" data-center-y="318">` +
  `<text data-field="email" data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="580" data-min-size="15" x="80" y="230" font-family="${F}" font-weight="400" font-size="24" fill="#f5f5f5">email</text>` +
  `<text data-field="phoneNumber" data-max-width="580" data-min-size="15" x="80" y="280" font-family="${F}" font-weight="400" font-size="24" fill="#f5f5f5">phone</text>` +
  `<text data-field="website" data-fit="wrap" data-max-lines="2" data-line-height="1.25" data-max-width="580" data-min-size="15" x="80" y="330" font-family="${F}" font-weight="400" font-size="24" fill="#f5f5f5">website</text>` +
  `<text data-field="linkedinUrl" data-max-width="580" data-min-size="14" x="80" y="380" font-family="${F}" font-weight="400" font-size="22" fill="#cfcfcf">linkedin</text>` +
  `<text data-field="address" data-fit="wrap" data-max-lines="2" data-max-width="580" data-min-size="15" data-line-height="1.3" x="80" y="430" font-family="${F}" font-weight="300" font-size="22" fill="#cfcfcf">address</text>` +
  `</g>` +
  `<g data-slot="qr" data-x="714" data-y="168" data-size="256">${qrPlaceholder(714, 168, 256, F)}</g>` +
  `<text data-field="profileUrl" data-max-width="250" data-min-size="10" x="842" y="452" text-anchor="middle" font-family="${F}" font-weight="400" font-size="14" letter-spacing="0.5" fill="#8f8f8f">profile</text>` +
  `<text data-if-not="profileUrl" x="842" y="452" text-anchor="middle" font-family="${F}" font-weight="500" font-size="13" letter-spacing="4" fill="#8f8f8f">SCAN TO CONNECT</text>` +
  `</svg>`;

