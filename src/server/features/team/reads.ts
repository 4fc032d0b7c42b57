import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '#server/db/client';
import { teamMembers, teams } from '#server/db/schema/team';

/**
 * Read verbs over team's tables for other features (issue 34, decision 34-07; docs/architecture.md,
 * "Who owns which tables"). A leaf: it imports team's own tables and nothing of another feature.
 * The fragments (subqueries) let a reader keep its one SQL query.
 */

/** The user's team and role (a user is in one team at most). */
export async function teamMembershipOf(db: Db | Tx, userId: string): Promise<{ teamId: string; role: string } | undefined> {
  const [m] = await db.select({ teamId: teamMembers.teamId, role: teamMembers.role }).from(teamMembers).where(eq(teamMembers.userId, userId)).limit(1);
  return m;
}

/** The user's role in that team and the team's name; none when the user is not in it. */
export async function teamMembershipIn(db: Db | Tx, userId: string, teamId: string): Promise<{ role: string; name: string } | undefined> {
  const [m] = await db
    .select({ role: teamMembers.role, name: teams.name })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.userId, userId), eq(teamMembers.teamId, teamId)))
    .limit(1);
  return m;
}

/** Subquery: the ids of the user's teams (for `inArray(x.teamId, …)` inside the reader's query). */
export function teamIdsOfUserQuery(db: Db | Tx, userId: string) {
  return db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId));
}

/** Subquery to join on `team_names.id`: every team's id and name. */
export function teamNamesQuery(db: Db | Tx) {
  return db.select({ id: teams.id, name: teams.name }).from(teams).as('team_names');
}

/**
 * Subquery to join on `member_team.userId`: each member's team and the team's public facts (name,
 * company, address, website, brand), as a member's page and look show them.
 */
export function memberTeamQuery(db: Db | Tx) {
  return db
    .select({
      userId: teamMembers.userId,
      id: teams.id,
      name: teams.name,
      companyName: teams.companyName,
      address: teams.address,
      website: teams.website,
      brand: teams.brand,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .as('member_team');
}

/** The public facts of the user's team (name, company, address, website, brand), if they are in one. */
export async function memberTeamOf(db: Db | Tx, userId: string) {
  const mt = memberTeamQuery(db);
  return (
    await db
      .select({ name: mt.name, companyName: mt.companyName, address: mt.address, website: mt.website, brand: mt.brand })
      .from(mt)
      .where(eq(mt.userId, userId))
      .limit(1)
  ).at(0);
}
