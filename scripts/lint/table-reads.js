// Who may import which tables (issue 34, decision 34-05; docs/architecture.md, "Who owns which tables").
// A table's owner is the feature its schema file is named after (`src/server/db/schema/<feature>.ts`;
// `infra.ts` belongs to server/infra). A feature imports tables from its own schema file only; it
// never imports the barrel (`#server/db/schema/index`, left to db/, infra/, jobs/, plugins/, cli/).
// The lists below are the only exceptions, and they are for reading: tests/build/table-writers.test.ts
// fails on any insert, update or delete of a table outside its owner.

/**
 * Read-only by design: reports that span the shop by nature. Keys are features, values the tables
 * (Drizzle names) they may read from other owners; '*' is every feature.
 */
export const TABLE_READS = {
  // a user's name, e-mail address and role address every message and screen; auth alone writes them
  '*': ['users'],
  // the staff's order and testing reports (the order list, the order page's facts, the testing summary)
  // and the e-mail outbox viewer (Admin > Outbox; its Send again is infra/mail/outbox.ts's requeueFailedEmail)
  admin: ['orders', 'orderStatusHistory', 'orderNotes', 'orderFulfilment', 'cards', 'designEvents', 'profiles', 'templates', 'outbox'],
  // team stats and the team's card pages read the members' profiles, cards, card codes and orders
  team: ['profiles', 'cards', 'cardCodes', 'orders', 'templates'],
  // the account export is a report of everything the account owns, across the shop
  account: [
    'cards', 'apiTokens', 'cardCodes', 'contactSaves', 'leads', 'linkClicks', 'visits', 'files',
    'orders', 'orderStatusHistory', 'profileLinks', 'profiles', 'webhookEndpoints', 'sessions',
  ],
};

/**
 * Reads that still reached into another feature's tables, to move behind the owner's read verbs.
 * Empty since decision 34-07: a feature reads another's tables through that owner's
 * `src/server/features/<owner>/reads.ts`; tests/build/architecture.test.ts keeps the list at zero,
 * so nothing goes here.
 */
export const READS_TO_MOVE = {};

/** Whether `feature` may import `table` from schema file `owner` (read-only outside its own). */
export function mayImportTable(feature, owner, table) {
  if (owner === feature) return true;
  if (owner === 'index') return false;
  const allowed = [...(TABLE_READS['*'] ?? []), ...(TABLE_READS[feature] ?? []), ...(READS_TO_MOVE[feature] ?? [])];
  return allowed.includes(table);
}
