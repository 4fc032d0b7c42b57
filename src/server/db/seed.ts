import type { AppContext } from '../context';
import { templatesSeed } from '../features/templates/templates.seed';

/** Seeds run at every start; each must be idempotent (insert ... on conflict do nothing). */
export const seeds: Array<{ name: string; run: (ctx: AppContext) => Promise<void> }> = [templatesSeed];

export async function runSeeds(ctx: AppContext) {
  for (const s of seeds) await s.run(ctx);
}
