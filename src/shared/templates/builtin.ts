import { TEMPLATE_IDS } from '#shared/catalogue';
import { classicBack, classicFront } from '#shared/templates/designs/classic';
import { minimalBack, minimalFront } from '#shared/templates/designs/minimal';
import { modernBack, modernFront } from '#shared/templates/designs/modern';
import { simpleBack, simpleFront } from '#shared/templates/designs/simple';
import { templateThumbnailUrl, type TemplateFolder } from './urls';

export { TEMPLATE_FOLDERS, TEMPLATE_SIDES, templateSvgUrl, templateThumbnailUrl, type TemplateFolder, type TemplateSide } from './urls';

/** Card geometry (spec: default viewBox 1050x600, aspect ratio 1.6 for previews). */
export const CARD_WIDTH = 1050;
export const CARD_HEIGHT = 600;

export interface BuiltinTemplate {
  id: number;
  name: string;
  description: string;
  category: string;
  folder: TemplateFolder;
  front: string;
  back: string;
}

/** The four built-in designs, seeded into the database (the database copy is what is used). */
export const BUILTIN_TEMPLATES: BuiltinTemplate[] = [
  {
    id: TEMPLATE_IDS.minimal,
    name: 'Minimal',
    description: 'Quiet and precise: a light name, spaced capitals and plenty of black metal.',
    category: 'Business Card',
    folder: 'minimal',
    front: minimalFront,
    back: minimalBack,
  },
  {
    id: TEMPLATE_IDS.classic,
    name: 'Classic',
    description: 'Centred serif name in a fine double frame, with a green-framed QR code on the back.',
    category: 'Business Card',
    folder: 'classic',
    front: classicFront,
    back: classicBack,
  },
  {
    id: TEMPLATE_IDS.simple,
    name: 'Simple',
    description: 'Clean, confident and easy to read: our most popular layout.',
    category: 'Business Card',
    folder: 'simple',
    front: simpleFront,
    back: simpleBack,
  },
  {
    id: TEMPLATE_IDS.modern,
    name: 'Modern',
    description: 'Bold capitals, monospaced details and an angled panel, with a green-framed QR code.',
    category: 'Business Card',
    folder: 'modern',
    front: modernFront,
    back: modernBack,
  },
];

export type CardLayout = 'minimal' | 'standard' | 'modern' | 'creative';
export type ProfileLayoutName = 'classic' | 'modern' | 'minimal' | 'creative' | 'corporate';

/** The client-side display form of a template (spec "Card template"), derived from its name. */
export interface TemplateDisplay {
  id: number;
  name: string;
  description: string;
  category: 'Business Card';
  previewImageUrl: string;
  layout: CardLayout;
  backgroundColor: string;
  textColor: string;
  qrStyle: 'standard';
  qrBorder: boolean;
  qrBorderColor?: string;
  qrBorderWidth?: number;
  profileTemplate: ProfileLayoutName;
  invertThumbnail: boolean;
}

export const QR_BORDER_GREEN = '#22c55e';

export function templateDisplay(t: { id: number; name: string; description: string }, version = 1): TemplateDisplay {
  const n = t.name.toLowerCase();
  const layout: CardLayout = n.includes('minimal') ? 'minimal' : n.includes('classic') ? 'standard' : n.includes('simple') ? 'modern' : 'creative';
  const profileTemplate: ProfileLayoutName = n.includes('minimal') ? 'minimal' : n.includes('classic') ? 'classic' : n.includes('simple') ? 'modern' : 'creative';
  const qrBorder = t.id === TEMPLATE_IDS.classic || t.id === TEMPLATE_IDS.modern;
  return {
    id: t.id,
    name: t.name,
    description: t.description,
    category: 'Business Card',
    previewImageUrl: templateThumbnailUrl(t.id, 'front', version),
    layout,
    backgroundColor: '#000000',
    textColor: '#ffffff',
    qrStyle: 'standard',
    qrBorder,
    ...(qrBorder ? { qrBorderColor: QR_BORDER_GREEN, qrBorderWidth: 2 } : {}),
    profileTemplate,
    // issue 37: every template is shown on the metal it is made in (black steel), never inverted
    invertThumbnail: false,
  };
}
