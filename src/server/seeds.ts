import type { AppContext } from '#server/context';
import { templatesSeed } from '#server/features/templates/templates.seed';

/** Composition root (like routes.ts): the start-up seeds. Seeds run at every start; each must be idempotent (insert ... on conflict do nothing). */
export const seeds: Array<{ name: string; run: (ctx: AppContext) => Promise<void> }> = [templatesSeed];

export async function runSeeds(ctx: AppContext) {
  for (const s of seeds) await s.run(ctx);
}
