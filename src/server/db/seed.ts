import type { AppContext } from '../context';

/** Seeds run at every start; each must be idempotent (insert ... on conflict do nothing). */
export const seeds: Array<{ name: string; run: (ctx: AppContext) => Promise<void> }> = [];

export async function runSeeds(ctx: AppContext) {
  for (const s of seeds) await s.run(ctx);
}
