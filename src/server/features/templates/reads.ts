import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { templates } from '#server/db/schema/templates';

/**
 * Read verbs over templates' tables for other features (issue 34, decision 34-07;
 * docs/architecture.md, "Who owns which tables"). A leaf: it imports templates' own tables and
 * nothing of another feature, so profile (which templates uses) reads here without a cycle.
 */

/** Whether a template with this id is stored. */
export async function templateExists(db: Db | Tx, templateId: number): Promise<boolean> {
  const [row] = await db.select({ id: templates.id }).from(templates).where(eq(templates.id, templateId)).limit(1);
  return row !== undefined;
}

/** How many templates are stored (none before the seed has run). */
export async function templateCount(db: Db | Tx): Promise<number> {
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(templates);
  return n;
}

/** Subquery to join on `template_names.id`: every template's name. */
export function templateNamesQuery(db: Db | Tx) {
  return db.select({ id: templates.id, name: templates.name }).from(templates).as('template_names');
}
