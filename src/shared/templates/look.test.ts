import { describe, expect, it } from 'vitest';
import { CARD_TYPE_IDS } from '#shared/catalogue';
import { BUILTIN_TEMPLATES } from './builtin';
import { fillTemplate } from './fill';
import { CARD_FINISHES, allowedAccent, allowedFont, toneOnFinish } from './look';

const minimal = BUILTIN_TEMPLATES.find((t) => t.folder === 'minimal')!;
/** The fill colour of the name (the text marked as the accent). */
const nameFill = (svg: string) => /<text[^>]*class="card-accent"[^>]*>/.exec(svg)?.[0].match(/fill="([^"]+)"/)?.[1];
const person = { fullName: 'Grace Hopper', jobTitle: 'Rear Admiral', email: 'grace@example.com', phoneNumber: '+1 212 555 0100' };

describe('card looks: each card type draws its own metal, the same everywhere', () => {
  it('gives each card type its own sheen and engraving colour', () => {
    const seen = new Set<string>();
    for (const cardType of CARD_TYPE_IDS) {
      const svg = fillTemplate(minimal.front, { ...person, look: { cardType } });
      const f = CARD_FINISHES[cardType];
      expect(svg).toContain(`stop-color="${f.sheen[0][1]}"`);
      // the name is engraved or printed in the card type's ink
      expect(nameFill(svg)).toBe(f.ink);
      seen.add(svg);
    }
    expect(seen.size).toBe(CARD_TYPE_IDS.length);
    // without a look: exactly the template as before
    expect(fillTemplate(minimal.front, person)).not.toContain('card-accent');
  });

  it('keeps a grey between metal and engraving, leaves colours alone', () => {
    const ti = CARD_FINISHES.luxury_titanium;
    expect(toneOnFinish('#ffffff', ti)).toBe(ti.ink);
    expect(toneOnFinish('#000000', ti)).toBe(ti.base);
    expect(toneOnFinish('#22c55e', ti)).toBeNull();
  });

  it('allows only the accents and fonts a card type can produce', () => {
    expect(allowedAccent('standard', '#ff0000')).toBe(CARD_FINISHES.standard.accents[0]);
    expect(allowedAccent('luxury_titanium', '#7A5A0C')).toBe('#7a5a0c');
    expect(allowedAccent('color', '#123456')).toBe('#123456');
    expect(allowedFont('"Playfair Display", serif')).toBe('Playfair Display');
    expect(allowedFont('Comic Sans MS')).toBeNull();
    const gold = fillTemplate(minimal.front, { ...person, look: { cardType: 'luxury_titanium', accent: '#7a5a0c', font: 'Playfair Display' } });
    expect(nameFill(gold)).toBe('#7a5a0c');
    expect(gold).toMatch(/font-family="Playfair Display, serif"/);
    // light weights are raised: a 300 weight fades when engraved
    expect(gold).not.toMatch(/font-weight="300"/);
  });

  it('keeps the QR code dark on light whatever the metal', () => {
    const back = BUILTIN_TEMPLATES.find((t) => t.folder === 'minimal')!.back;
    const plain = fillTemplate(back, person, { qrUrl: 'https://cards.example.test/p/abc' });
    const onTitanium = fillTemplate(back, { ...person, look: { cardType: 'luxury_titanium' } }, { qrUrl: 'https://cards.example.test/p/abc' });
    const qrOf = (svg: string) => /<g class="qr-code">[\s\S]*?<\/g><\/g>|<g class="qr-code">[\s\S]*?<\/g>/.exec(svg)?.[0];
    expect(qrOf(onTitanium)).toBe(qrOf(plain));
  });

  it('moves and sizes the logo box', () => {
    const svg = fillTemplate(minimal.front, { ...person, look: { cardType: 'standard', logoPosition: 'right', logoScale: 1.5 } }, { logoHref: 'data:image/png;base64,AAAA' });
    const m = /<image x="([\d.]+)" y="[\d.]+" width="([\d.]+)"/.exec(svg)!;
    expect(Number(m[1]) + Number(m[2])).toBeCloseTo(1050 - 80, 0);
    expect(Number(m[2])).toBeCloseTo(150 * 1.5, 0);
  });
});
