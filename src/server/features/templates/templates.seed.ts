import type { AppContext } from '#server/context';
import { seedTemplates } from './templates.service';

/** The four built-in card templates (15 Minimal, 16 Classic, 17 Simple, 18 Modern). */
export const templatesSeed = { name: 'templates', run: (ctx: AppContext) => seedTemplates(ctx) };
