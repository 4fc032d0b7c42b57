// Without zod: the designer's bundle polls the review queue too (first-load budget, tests/e2e/shell-qa.e2e.ts).
/** Polling intervals (spec: stats 60 s, pending reviews 60 s, testing summary 300 s). */
export const ADMIN_POLL_MS = { stats: 60_000, pendingReviews: 60_000, testingSummary: 300_000 } as const;
