import { describe, expect, it } from 'vitest';
import { AiFeedbackCreateBody, type DesignFeedbackRequest } from '#shared/schemas/ai';
import { analyseDesign, generateDesignFeedback, questionTopics } from './feedback';

const review = (body: DesignFeedbackRequest) => generateDesignFeedback(AiFeedbackCreateBody.parse(body));
const good: DesignFeedbackRequest['currentDesign'] = {
  template: 17,
  cardType: 'standard',
  cardStyle: 'Matte',
  colors: { background: '#000000', text: '#FFFFFF', accents: ['#FFD700'] },
  fonts: ['Montserrat', 'Inter'],
  businessInfo: { fullName: 'Ada Lovelace', jobTitle: 'Engineer', email: 'ada@example.com', phone: '+1 212 555 0100' },
  qr: { margin: 4, sizeMm: 20 },
};

describe('design feedback (built-in analysis)', () => {
  it('catches a low-contrast design and answers the question with the figures', () => {
    const r = review({ currentDesign: { ...good, cardType: undefined, colors: { background: '#222222', text: '#555555', accents: [] } }, userQuestion: 'Is my text readable?' });
    const f = r.findings.find((x) => x.id === 'contrast-text')!;
    expect(f.severity).toBe('critical');
    expect(f.value).toBe(2.13);
    expect(r.answer).toMatch(/^On readability: your design needs fixing/);
    expect(r.answer).toContain('2.13:1');
    expect(r.feedback).toContain(r.answer);
    expect(r.score).toBeLessThan(70);
    expect(r.engine).toBe('built-in');
  });

  it('passes a clean design', () => {
    const r = review({ currentDesign: good, userQuestion: 'What do you think of my card?' });
    expect(r.findings.filter((f) => f.severity === 'critical' || f.severity === 'warning')).toEqual([]);
    expect(r.score).toBeGreaterThanOrEqual(90);
    // judged on the metal: bright-steel engraving on black steel in its worst light
    expect(r.findings.find((f) => f.id === 'contrast-text')!.value).toBeGreaterThan(7);
    expect(r.answer).toMatch(/scores \d+\/100/);
  });

  it('counts fonts and flags fonts the product does not bundle', () => {
    const r = review({ currentDesign: { ...good, fonts: ['Playfair Display', 'Comic Sans', 'Inter'] }, userQuestion: 'Are my fonts ok?' });
    expect(r.findings.find((f) => f.id === 'fonts-count')).toMatchObject({ severity: 'warning', value: 3 });
    expect(r.findings.find((f) => f.id === 'fonts-unbundled')!.detail).toContain('Comic Sans');
    expect(r.answer).toMatch(/^On typography/);
  });

  it('counts colours', () => {
    const r = review({ currentDesign: { ...good, cardType: 'color', colors: { background: '#000000', text: '#FFFFFF', accents: ['#FF0000', '#00AA00', '#3366FF'] } }, userQuestion: 'colours?' });
    expect(r.findings.find((f) => f.id === 'colors-count')).toMatchObject({ severity: 'warning', value: 5 });
  });

  it('measures text against the template space', () => {
    const long = '1234 Extremely Long Boulevard Name, Suite 5600, Springfield Gardens, New York, NY 11413, United States of America';
    const r = review({ currentDesign: { ...good, template: 'modern', businessInfo: { ...good.businessInfo!, address: long } }, userQuestion: 'Does everything fit?' });
    expect(r.findings.find((f) => f.id === 'text-address')!.severity).toBe('critical');
    expect(r.answer).toMatch(/^On text and space/);
    const name = review({ currentDesign: { ...good, template: 15, businessInfo: { fullName: 'Maximiliana Alexandrova-Wolkonskaya von Habsburg' } }, userQuestion: 'fit?' });
    const nf = name.findings.find((f) => f.id === 'text-fullName')!;
    expect(['warning', 'info']).toContain(nf.severity);
    expect(nf.value).toBeLessThan(15);
    const ok = review({ currentDesign: good, userQuestion: 'fit?' });
    expect(ok.findings.find((f) => f.id === 'text-fit')!.severity).toBe('good');
  });

  it('checks the QR quiet zone, size and contrast', () => {
    const framed = review({ currentDesign: { ...good, template: 16, qr: { margin: 0 } }, userQuestion: 'Will the QR code scan?' });
    expect(framed.findings.find((f) => f.id === 'qr-quiet-zone')!.severity).toBe('critical');
    expect(framed.answer).toMatch(/^On the QR code/);
    const tiny = review({ currentDesign: { ...good, qr: { margin: 2, sizeMm: 10 } }, userQuestion: 'qr' });
    expect(tiny.findings.find((f) => f.id === 'qr-size')!.severity).toBe('critical');
    const faint = review({ currentDesign: { ...good, cardType: 'color', qr: { foreground: '#777777', background: '#666666' } }, userQuestion: 'qr' });
    expect(faint.findings.find((f) => f.id === 'qr-contrast')!.severity).toBe('critical');
  });

  it('checks legibility on the chosen metal finish, once, on what the metal really makes', () => {
    // printed light grey on a printed near-white Color Metal in mirror light: unreadable
    const r = review({ currentDesign: { ...good, cardType: 'color', cardStyle: 'Mirror', colors: { background: '#F4F4F4', text: '#BBBBBB' } }, userQuestion: 'Will it look good on this metal?' });
    const f = r.findings.find((x) => x.id === 'contrast-text')!;
    expect(f.severity).toBe('critical');
    expect(f.detail).toContain('Color Metal with a Mirror finish');
    expect(r.answer).toMatch(/^On the metal finish/);
    // on an engraved metal the typed colours are not what is made: the engraving is judged
    const onBlack = review({ currentDesign: { ...good, colors: { background: '#222222', text: '#555555', accents: [] } }, userQuestion: 'finish?' });
    expect(onBlack.findings.find((x) => x.id === 'contrast-text')!.severity).toBe('good');
    expect(onBlack.findings.find((x) => x.id === 'finish-engraved')!.detail).toMatch(/engraved.*Only Color Metal prints colours \(\+\$1\.00 a card\)/);
  });

  it('never contradicts itself: one verdict per check, no colour advice an engraved metal cannot follow', () => {
    const designs: DesignFeedbackRequest['currentDesign'][] = [];
    for (const cardType of ['standard', 'color', 'black_anodized', 'luxury_titanium'] as const)
      for (const cardStyle of ['Matte', 'Brushed', 'Mirror'] as const)
        for (const [background, text] of [
          ['#000000', '#FFFFFF'],
          ['#222222', '#555555'],
          ['#FFFFFF', '#777777'],
          ['#0A2540', '#C9A227'],
        ])
          designs.push({ ...good, cardType, cardStyle, colors: { background, text, accents: ['#FF0000'] } });
    for (const d of designs) {
      const r = review({ currentDesign: d, userQuestion: 'Is it readable?' });
      const ids = r.findings.map((f) => f.id);
      expect(new Set(ids).size, `${d.cardType} ${d.cardStyle}: duplicate verdicts ${ids}`).toBe(ids.length);
      // the old pair that could pass and fail the same text at once is gone
      expect(ids).not.toContain('finish-legibility');
      const said = r.findings.map((f) => f.detail).join(' ');
      if (d.cardType !== 'color') {
        expect(said, `${d.cardType}: advice asks for a colour the engraving cannot make`).not.toMatch(/\bTry \w[\w ]* #[0-9A-F]{6}/);
        expect(ids).not.toContain('contrast-accent-0');
      }
    }
  });

  it('never names a template by its id', () => {
    const r = review({ currentDesign: { ...good, template: 16 }, userQuestion: 'Overall?' });
    expect(r.answer).toContain('Classic layout');
    expect(r.feedback).not.toMatch(/template \d+|#1[5-8]\b/);
  });

  it('routes questions to topics', () => {
    expect(questionTopics('Can people scan it?').topics).toContain('qr');
    expect(questionTopics('Is the font too thin?').topics).toContain('fonts');
    expect(questionTopics('hello').topics).toEqual([]);
  });

  it('is deterministic and lists the most severe findings first', () => {
    const design = AiFeedbackCreateBody.parse({ currentDesign: { colors: { background: '#FFFFFF', text: '#EEEEEE' } }, userQuestion: 'x' }).currentDesign;
    const a = analyseDesign(design);
    expect(a).toEqual(analyseDesign(design));
    const order = { critical: 0, warning: 1, info: 2, good: 3 };
    for (let i = 1; i < a.findings.length; i++) expect(order[a.findings[i - 1].severity]).toBeLessThanOrEqual(order[a.findings[i].severity]);
  });
});
