/**
 * The design assistant's knowledge: how moods shape a palette, what each industry expects, how a
 * brand personality and a role change fonts and layout. Data only; the engines read it.
 */
import type { BrandPersonality, Industry, Mood, AiTemplateId } from '#shared/schemas/ai';

export type Harmony = 'analogous' | 'complementary' | 'split-complementary' | 'triadic' | 'tetradic' | 'monochromatic';

export interface MoodProfile {
  harmony: Harmony;
  /** multiplies the chroma of generated colours */
  chroma: number;
  /** chroma of a synthesised primary when the base colour is a neutral */
  primaryC: number;
  primaryL: number;
  secondaryL: number;
  accentL: number;
  accentC: number;
  background: 'dark' | 'light';
  /** background lightness/chroma/hue override (hue undefined: tinted by the seed hue) */
  bg: { l: number; c: number; h?: number };
  /** hue the palette leans toward, with strength 0..1 */
  pull?: { h: number; k: number };
  words: string;
}

export const MOOD_PROFILES: Record<Mood, MoodProfile> = {
  Professional: { harmony: 'analogous', chroma: 0.75, primaryC: 0.1, primaryL: 0.5, secondaryL: 0.62, accentL: 0.74, accentC: 0.1, background: 'dark', bg: { l: 0.2, c: 0.012 }, words: 'restrained and businesslike' },
  Creative: { harmony: 'triadic', chroma: 1.25, primaryC: 0.17, primaryL: 0.62, secondaryL: 0.7, accentL: 0.8, accentC: 0.17, background: 'dark', bg: { l: 0.19, c: 0.02 }, words: 'playful and expressive' },
  Energetic: { harmony: 'complementary', chroma: 1.35, primaryC: 0.2, primaryL: 0.66, secondaryL: 0.72, accentL: 0.82, accentC: 0.19, background: 'dark', bg: { l: 0.18, c: 0.018 }, words: 'lively and high-contrast' },
  Calm: { harmony: 'analogous', chroma: 0.55, primaryC: 0.07, primaryL: 0.6, secondaryL: 0.7, accentL: 0.52, accentC: 0.07, background: 'light', bg: { l: 0.97, c: 0.01 }, pull: { h: 200, k: 0.25 }, words: 'soft, quiet and airy' },
  Bold: { harmony: 'complementary', chroma: 1.5, primaryC: 0.22, primaryL: 0.6, secondaryL: 0.68, accentL: 0.84, accentC: 0.2, background: 'dark', bg: { l: 0.14, c: 0.01 }, words: 'strong and unmistakable' },
  Elegant: { harmony: 'monochromatic', chroma: 0.5, primaryC: 0.06, primaryL: 0.45, secondaryL: 0.62, accentL: 0.8, accentC: 0.11, background: 'dark', bg: { l: 0.15, c: 0.008 }, words: 'understated, with one precious accent' },
  Modern: { harmony: 'split-complementary', chroma: 1.0, primaryC: 0.14, primaryL: 0.55, secondaryL: 0.66, accentL: 0.62, accentC: 0.18, background: 'light', bg: { l: 0.975, c: 0.004 }, words: 'clean, neutral and crisp' },
  Traditional: { harmony: 'analogous', chroma: 0.7, primaryC: 0.1, primaryL: 0.38, secondaryL: 0.48, accentL: 0.55, accentC: 0.1, background: 'light', bg: { l: 0.955, c: 0.022, h: 85 }, words: 'classic, deep and dignified' },
  Trustworthy: { harmony: 'analogous', chroma: 0.85, primaryC: 0.12, primaryL: 0.45, secondaryL: 0.56, accentL: 0.55, accentC: 0.12, background: 'light', bg: { l: 0.975, c: 0.008 }, pull: { h: 255, k: 0.4 }, words: 'steady, calm and dependable' },
  Innovative: { harmony: 'tetradic', chroma: 1.2, primaryC: 0.18, primaryL: 0.62, secondaryL: 0.72, accentL: 0.84, accentC: 0.16, background: 'dark', bg: { l: 0.17, c: 0.025 }, pull: { h: 280, k: 0.2 }, words: 'forward-looking and electric' },
};

export const HARMONY_OFFSETS: Record<Harmony, [number, number]> = {
  analogous: [30, -30],
  complementary: [30, 180],
  'split-complementary': [150, 210],
  triadic: [120, 240],
  tetradic: [90, 180],
  monochromatic: [0, 0],
};

export interface IndustryProfile {
  /** signature hue (OKLCH degrees) used when the base colour is a neutral */
  hue: number;
  /** conventional accent hue */
  accentHue: number;
  accentName: string;
  /** how strongly a harmony's accent is pulled toward the conventional accent hue (0..1) */
  accentPull: number;
  chroma: number;
  convention: string;
  /** font scores by family (higher = better fit) */
  fonts: Partial<Record<FontFamily, number>>;
  /** template fit 0..3 */
  templates: Record<AiTemplateId, number>;
  tips: string[];
}

export type FontFamily = 'Inter' | 'Playfair Display' | 'Montserrat' | 'JetBrains Mono';

export const INDUSTRY_PROFILES: Record<Industry, IndustryProfile> = {
  Technology: {
    hue: 262,
    accentHue: 205,
    accentName: 'electric cyan',
    accentPull: 0.25,
    chroma: 1.05,
    convention: 'tech brands lean on blues and cyans that read as precise and current',
    fonts: { Inter: 3, Montserrat: 2, 'JetBrains Mono': 3 },
    templates: { 15: 3, 16: 0, 17: 2, 18: 3 },
    tips: [
      'Put your GitHub, product or portfolio link behind the QR code: technical contacts scan to check your work, not to read a brochure.',
      'Skip buzzwords on the card; a precise title ("Staff Backend Engineer, Payments") says more than "Tech Visionary".',
      'A monospaced detail line (JetBrains Mono) for handle or email signals engineering culture without a logo.',
      'Black Anodized or Standard Metal with white engraving matches the dark interfaces your peers live in.',
    ],
  },
  Healthcare: {
    hue: 195,
    accentHue: 150,
    accentName: 'fresh green',
    accentPull: 0.4,
    chroma: 0.85,
    convention: 'healthcare relies on teals, blues and greens associated with hygiene and care',
    fonts: { Inter: 3, Montserrat: 1, 'Playfair Display': 1 },
    templates: { 15: 2, 16: 2, 17: 3, 18: 1 },
    tips: [
      'List credentials after the name (MD, RN, DPT) and the specialty on its own line: patients look for both first.',
      'Make the appointment phone number the largest contact detail; many patients call rather than e-mail.',
      'Link the QR code to a booking page or practice profile so a scan leads straight to an appointment.',
      'Keep contrast high (7:1 or better): many patients read with reduced vision.',
    ],
  },
  Finance: {
    hue: 255,
    accentHue: 88,
    accentName: 'gold',
    accentPull: 0.75,
    chroma: 0.75,
    convention: 'finance expects navy, charcoal and a touch of gold: stability with quiet prestige',
    fonts: { Inter: 3, 'Playfair Display': 2, Montserrat: 1 },
    templates: { 15: 2, 16: 3, 17: 2, 18: 1 },
    tips: [
      'Show licences and registrations (CFA, CFP, FINRA/SEC disclosures) where they are required, in small but legible type.',
      'Restraint signals trust: one accent colour, generous margins, no gradients.',
      'Luxury Titanium (its name can be anodized gold) or Black Anodized (bright engraving on deep black) suits client-facing wealth roles.',
      'Point the QR code at a compliant profile page rather than a personal social account.',
    ],
  },
  'Real Estate': {
    hue: 150,
    accentHue: 85,
    accentName: 'warm gold',
    accentPull: 0.5,
    chroma: 0.85,
    convention: 'property brands use deep greens, navies and warm golds that suggest home and value',
    fonts: { Montserrat: 3, 'Playfair Display': 2, Inter: 2 },
    templates: { 15: 1, 16: 2, 17: 2, 18: 3 },
    tips: [
      'Your phone number is the call to action: make it the boldest contact line.',
      'Add your brokerage and licence number; many states require both on marketing material.',
      'Link the QR code to current listings or a home-valuation page so the card keeps working after the open house.',
      'A photo on the digital profile helps clients recognise you at viewings; keep the card itself clean.',
    ],
  },
  Legal: {
    hue: 18,
    accentHue: 85,
    accentName: 'antique gold',
    accentPull: 0.8,
    chroma: 0.7,
    convention: 'law firms favour burgundy, navy and black with serif type for gravitas',
    fonts: { 'Playfair Display': 3, Inter: 2, Montserrat: 0 },
    templates: { 15: 2, 16: 3, 17: 1, 18: 0 },
    tips: [
      'Use the firm name exactly as registered and add bar admissions where your jurisdiction expects them.',
      'A serif for the name (Playfair Display) with a plain sans for details is the classic legal pairing.',
      'Avoid playful colours and icons; burgundy, navy or plain black with a single gold line carries authority.',
      'Put direct dial and e-mail first; a switchboard number alone costs clients time.',
    ],
  },
  Marketing: {
    hue: 350,
    accentHue: 60,
    accentName: 'sunset orange',
    accentPull: 0.15,
    chroma: 1.25,
    convention: 'marketing brands can carry saturated colour and bold type: the card itself is a sample of the work',
    fonts: { Montserrat: 3, Inter: 2, 'Playfair Display': 1 },
    templates: { 15: 1, 16: 0, 17: 2, 18: 3 },
    tips: [
      'Treat the card as a portfolio piece: one bold idea executed well beats many small ones.',
      'Link the QR code to a case study or campaign reel and refresh it as your work changes.',
      'Color Metal lets you print brand colours exactly; check the palette stays legible in print.',
      'Add the social handle where your clients actually meet you (LinkedIn for B2B, Instagram for consumer brands).',
    ],
  },
  Consulting: {
    hue: 245,
    accentHue: 180,
    accentName: 'teal',
    accentPull: 0.5,
    chroma: 0.8,
    convention: 'consultancies use navy, slate and one crisp accent to look analytical and senior',
    fonts: { Inter: 3, Montserrat: 2, 'Playfair Display': 1 },
    templates: { 15: 3, 16: 2, 17: 2, 18: 1 },
    tips: [
      'State the problem you solve in the title line ("Supply-chain turnaround") rather than a generic "Consultant".',
      'Link the QR code to a one-page capability statement or booking link for an intro call.',
      'Whitespace reads as senior: keep the front to name, title and company.',
      'If you work under a firm brand, keep its colours exactly; otherwise one accent colour is enough.',
    ],
  },
  Education: {
    hue: 265,
    accentHue: 65,
    accentName: 'bright orange',
    accentPull: 0.3,
    chroma: 1.0,
    convention: 'education pairs dependable blues with a warm, approachable accent',
    fonts: { Inter: 3, 'Playfair Display': 2, Montserrat: 2 },
    templates: { 15: 1, 16: 3, 17: 3, 18: 1 },
    tips: [
      'Include department, office and office hours on the digital profile; the card only needs name, title and institution.',
      'Use the institution\'s official colours and name if you represent it.',
      'A QR code to your course or research page saves students from searching.',
      'Friendly, plain sans type (Inter) keeps the card approachable for students and parents.',
    ],
  },
  Retail: {
    hue: 28,
    accentHue: 95,
    accentName: 'sunny yellow',
    accentPull: 0.2,
    chroma: 1.15,
    convention: 'retail uses warm, saturated colours that feel inviting and easy to spot',
    fonts: { Montserrat: 3, Inter: 2, 'Playfair Display': 1 },
    templates: { 15: 1, 16: 1, 17: 3, 18: 3 },
    tips: [
      'Put store address and opening hours on the digital profile and link the QR code to it (or to the online shop).',
      'Match the colours of your storefront signage so the card is recognisable at a glance.',
      'An offer behind the QR code ("10% off your first order") turns the card into a coupon that gets kept.',
      'Keep the front to logo and shop name; details go on the back.',
    ],
  },
  Manufacturing: {
    hue: 240,
    accentHue: 55,
    accentName: 'safety orange',
    accentPull: 0.4,
    chroma: 0.8,
    convention: 'industrial brands use steel blues and greys with a safety-orange accent',
    fonts: { Montserrat: 3, Inter: 3, 'JetBrains Mono': 1 },
    templates: { 15: 1, 16: 2, 17: 3, 18: 2 },
    tips: [
      'List certifications (ISO 9001, AS9100) and the capabilities buyers search for (CNC, injection moulding).',
      'A QR code to a spec sheet or RFQ form is more useful than a homepage.',
      'Brushed metal finishes echo machined parts; keep text large enough to survive the grain.',
      'Give a direct line for quotes; buyers rarely wait on a general enquiries address.',
    ],
  },
  Construction: {
    hue: 62,
    accentHue: 98,
    accentName: 'high-visibility yellow',
    accentPull: 0.5,
    chroma: 1.1,
    convention: 'construction brands use strong orange, yellow and charcoal: visible, practical, sturdy',
    fonts: { Montserrat: 3, Inter: 2 },
    templates: { 15: 0, 16: 2, 17: 3, 18: 2 },
    tips: [
      'Show the licence and insurance number; clients check them before hiring.',
      'Make the mobile number big and bold: your clients call from site, often with gloves on.',
      'Link the QR code to a gallery of finished projects and reviews.',
      'Metal cards survive the job site; a Matte finish hides fingerprints and dust.',
    ],
  },
  Other: {
    hue: 280,
    accentHue: 180,
    accentName: 'teal',
    accentPull: 0.0,
    chroma: 1.0,
    convention: 'without an industry convention the palette follows the brand personality',
    fonts: { Inter: 2, Montserrat: 2, 'Playfair Display': 1 },
    templates: { 15: 2, 16: 2, 17: 3, 18: 2 },
    tips: [
      'Decide the one thing a new contact should remember about you and let the card say only that.',
      'Link the QR code to the page where you want people to act (book, buy, follow).',
      'Two fonts at most, one accent colour, and the name as the largest element.',
    ],
  },
};

export interface PersonalityProfile {
  mood: Mood;
  fonts: Partial<Record<FontFamily, number>>;
  templates: Partial<Record<AiTemplateId, number>>;
  advice: string;
}

export const PERSONALITY_PROFILES: Record<BrandPersonality, PersonalityProfile> = {
  Professional: { mood: 'Professional', fonts: { Inter: 2, Montserrat: 1 }, templates: { 15: 1, 16: 1 }, advice: 'Keep everything aligned to one edge and use weight, not colour, to rank information.' },
  Creative: { mood: 'Creative', fonts: { Montserrat: 2, 'Playfair Display': 1 }, templates: { 18: 2, 17: 1 }, advice: 'Let one unexpected detail carry the personality (a colour on the edge, a monogram) and keep the rest disciplined.' },
  Modern: { mood: 'Modern', fonts: { Montserrat: 2, Inter: 2 }, templates: { 18: 2, 15: 1 }, advice: 'Use asymmetry and generous negative space; thin rules and small caps feel current.' },
  Traditional: { mood: 'Traditional', fonts: { 'Playfair Display': 3 }, templates: { 16: 3 }, advice: 'Centre the name in a serif, keep colours deep and details in a quiet sans.' },
  Friendly: { mood: 'Calm', fonts: { Inter: 2, Montserrat: 1 }, templates: { 17: 2 }, advice: 'Use your first name prominently on the digital profile and a warm photo; keep the card uncluttered and approachable.' },
  Authoritative: { mood: 'Bold', fonts: { 'Playfair Display': 2, Montserrat: 1 }, templates: { 16: 2, 15: 1 }, advice: 'Large name, strong weight, one colour: authority comes from confidence, not decoration.' },
  Innovative: { mood: 'Innovative', fonts: { 'JetBrains Mono': 2, Montserrat: 1, Inter: 1 }, templates: { 18: 2, 15: 1 }, advice: 'Make the QR code part of the design rather than an afterthought: it is the bridge to what you are building.' },
  Trustworthy: { mood: 'Trustworthy', fonts: { Inter: 3 }, templates: { 16: 1, 17: 2 }, advice: 'Show real credentials and a real address; consistency between card, profile and website builds trust.' },
  Energetic: { mood: 'Energetic', fonts: { Montserrat: 3 }, templates: { 18: 2, 17: 1 }, advice: 'Use a vivid accent on one element only so the energy reads as intentional, not noisy.' },
  Elegant: { mood: 'Elegant', fonts: { 'Playfair Display': 3, Inter: 1 }, templates: { 15: 3, 16: 1 }, advice: 'Less is more: a serif name, letter-spaced small caps for the title and a single gold or silver accent.' },
};

export type RoleKind = 'executive' | 'creative' | 'technical' | 'sales' | 'medical' | 'legal' | 'educator' | 'trades' | 'advisor' | 'general';

/** Keyword rules, first match wins (checked on the lower-cased role). */
export const ROLE_RULES: Array<[RoleKind, RegExp]> = [
  ['executive', /\b(ceo|cfo|coo|cto|cmo|cio|chief|founder|co-founder|cofounder|owner|president|vp|vice president|director|partner|principal|managing|head of|chair)\b/],
  ['legal', /\b(attorney|lawyer|counsel|solicitor|barrister|paralegal|notary|advocate)\b/],
  ['medical', /\b(doctor|physician|surgeon|nurse|dentist|therapist|physiotherapist|pharmacist|md|rn|dds|clinician|psychologist|chiropractor|veterinarian|vet)\b/],
  ['technical', /\b(engineer|developer|programmer|architect|scientist|analyst|devops|sre|data|software|it|technician|researcher)\b/],
  ['creative', /\b(designer|artist|photographer|illustrator|creative|writer|copywriter|editor|stylist|videographer|musician|art director)\b/],
  ['sales', /\b(sales|account|agent|broker|realtor|business development|bd|representative|rep|recruiter|loan officer|buyer)\b/],
  ['educator', /\b(teacher|professor|lecturer|tutor|instructor|dean|coach|trainer|educator|principal teacher)\b/],
  ['trades', /\b(contractor|electrician|plumber|carpenter|builder|foreman|mason|welder|roofer|mechanic|installer|superintendent)\b/],
  ['advisor', /\b(consultant|advisor|adviser|planner|strategist|accountant|cpa|auditor|specialist|manager)\b/],
];

export interface RoleProfile {
  label: string;
  templates: Partial<Record<AiTemplateId, number>>;
  advice: string;
  layoutNote: string;
}

export const ROLE_PROFILES: Record<RoleKind, RoleProfile> = {
  executive: { label: 'leadership', templates: { 15: 2, 16: 1 }, advice: 'As a {role}, less information signals more seniority: name, title, company and one direct contact line; the rest lives on the digital profile.', layoutNote: 'room for a short title and a single contact line' },
  creative: { label: 'creative', templates: { 18: 2, 17: 1 }, advice: 'As a {role}, the card is a sample of your taste: choose one strong visual move and link the QR code to your portfolio.', layoutNote: 'space for one bold visual move' },
  technical: { label: 'technical', templates: { 15: 1, 17: 1, 18: 1 }, advice: 'As a {role}, precision beats polish: exact title, the one channel you answer fastest, and a QR code to your work.', layoutNote: 'a tidy grid for exact details' },
  sales: { label: 'client-facing', templates: { 17: 2, 18: 1 }, advice: 'As a {role}, every detail should make it easy to reach you: phone first, a QR code that saves your contact in one tap.', layoutNote: 'a prominent phone line and QR code' },
  medical: { label: 'clinical', templates: { 17: 2, 16: 1 }, advice: 'As a {role}, patients need to know who you are and how to book: credentials, specialty, and the appointment line.', layoutNote: 'clear credentials and a booking line' },
  legal: { label: 'legal', templates: { 16: 2, 15: 1 }, advice: 'As a {role}, formality is expected: full name with credentials, firm, direct dial; no slogans.', layoutNote: 'a formal, centred hierarchy' },
  educator: { label: 'teaching', templates: { 16: 1, 17: 2 }, advice: 'As a {role}, make it easy for students to find you: institution, department and a QR code to your course or office hours.', layoutNote: 'institution and department lines' },
  trades: { label: 'trade', templates: { 17: 2, 16: 1 }, advice: 'As a {role}, customers keep your card for the next job: a big phone number, licence number and the services you offer.', layoutNote: 'large phone number and licence line' },
  advisor: { label: 'advisory', templates: { 15: 1, 17: 1, 16: 1 }, advice: 'As a {role}, name the outcome you deliver in the title line and link the QR code to a booking page.', layoutNote: 'a title line that states the outcome' },
  general: { label: 'professional', templates: { 17: 1 }, advice: 'As a {role}, lead with your name and the one way you want to be contacted.', layoutNote: 'a clear name-title-contact hierarchy' },
};

export type AudienceKind = 'corporate' | 'consumers' | 'luxury' | 'startups' | 'local' | 'patients' | 'students' | 'public-sector' | 'creative';

export const AUDIENCE_RULES: Array<[AudienceKind, RegExp, string]> = [
  ['luxury', /\b(luxury|high[- ]net[- ]worth|hnw|affluent|premium|vip|executives?|c-suite|wealthy)\b/, 'Your audience expects understatement: Luxury Titanium or Black Anodized, a Mirror or Brushed finish and at most one accent colour.'],
  ['startups', /\b(startups?|founders?|investors?|vcs?|tech companies|developers|saas|scale-?ups?)\b/, 'Founders and investors scan fast: put a QR code to a one-line pitch or deck and keep the card minimal.'],
  ['corporate', /\b(b2b|corporate|enterprises?|businesses|companies|procurement|professionals|clients|firms|partners)\b/, 'For business buyers, clarity beats charm: exact title, company and a direct line; the QR code should save the contact in one tap.'],
  ['patients', /\b(patients?|families|caregivers|seniors|elderly|parents)\b/, 'For patients and families, use large type and high contrast (7:1) and make the phone number the first detail.'],
  ['students', /\b(students?|learners|pupils|graduates|young|youth|gen ?z|millennials)\b/, 'A younger audience expects to scan rather than type: make the QR code prominent and link to a mobile-friendly page.'],
  ['public-sector', /\b(government|public sector|municipal|city|nonprofits?|ngos?|schools|universities)\b/, 'Public-sector contacts value plain language and accessibility: high contrast, no jargon, full postal address.'],
  ['local', /\b(local|neighbou?rhood|community|homeowners|residents|small business(es)?|shoppers|customers|consumers|buyers|sellers|tenants)\b/, 'Local customers keep cards for later: include the area you serve and a phone number that is easy to read at arm\'s length.'],
  ['creative', /\b(agencies|brands|artists|designers|creatives|media|galleries)\b/, 'A creative audience judges craft: tight kerning, consistent margins and a finish that rewards touch (Brushed or Mirror).'],
];
