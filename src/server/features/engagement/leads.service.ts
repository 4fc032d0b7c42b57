import { and, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { leads } from '#server/db/schema/engagement';
import { forbidden, notFound } from '#server/http/http-errors';
import { enqueueEmail } from '#server/infra/mail/outbox';
import { recordEvent } from '#server/features/webhooks/public-api';
import { LEAD_HONEYPOT_FIELD, LEAD_MESSAGES, type Lead, type LeadCreateBody, type LeadList } from '#shared/schemas/engagement';
import { findProfileRowByUser } from '#server/features/profile/public-api';
import { setLeadFormEnabled } from '#server/features/profile/public-api';
import { leadTargetOf } from '#server/features/profile/reads';
import { teamIdsOfUserQuery } from '#server/features/team/reads';
import { leadReceivedEmail } from './lead-email';

type LeadRow = typeof leads.$inferSelect;

/**
 * The leads a profile's owner sees: their own, and those collected while on their current team.
 * Leads collected for a team the owner has left stay with that team (issue 21).
 */
function ownersLeads(ctx: AppContext, profileId: string, userId: string) {
  return and(
    eq(leads.profileId, profileId),
    or(isNull(leads.teamId), inArray(leads.teamId, teamIdsOfUserQuery(ctx.db, userId))),
  );
}

/** Most leads an export holds (newest first). */
export const LEAD_EXPORT_MAX = 10_000;

export function toLead(row: LeadRow): Lead {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    note: row.note,
    consent: row.consent,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface SubmitLeadResult {
  /** false when the honeypot was filled: the visitor is thanked, nothing is kept */
  stored: boolean;
  lead?: Lead;
}

/** The public profile a lead is for, with its owner's account e-mail; 404 when there is none. */
async function leadTarget(ctx: AppContext, profileId: string) {
  const row = await leadTargetOf(ctx.db, profileId);
  if (!row) throw notFound('Profile not found');
  return row;
}

/**
 * A visitor's details for the owner: stored with the owner's e-mail notification in one
 * transaction (the outbox sends it). A filled honeypot is answered like a success and dropped.
 */
export async function submitLead(ctx: AppContext, profileId: string, body: LeadCreateBody, baseUrl: string): Promise<SubmitLeadResult> {
  const target = await leadTarget(ctx, profileId);
  if (!target.enabled) throw forbidden(LEAD_MESSAGES.disabled);
  if ((body[LEAD_HONEYPOT_FIELD] ?? '').trim() !== '') return { stored: false };

  const row = await ctx.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(leads)
      .values({
        profileId: target.id,
        name: body.name,
        email: body.email,
        phone: body.phone,
        company: body.company,
        note: body.note,
        consent: body.consent,
        // a team member's lead belongs to the team as well (it stays with the team if they leave)
        teamId: sql`(select m.team_id from team_members m join profiles p on p.user_id = m.user_id where p.id = ${target.id})`,
      })
      .returning();
    await recordEvent(tx, { type: 'lead.created', userId: sql`(select user_id from profiles where id = ${target.id})`, teamId: inserted.teamId, data: { lead: { ...toLead(inserted), profileId: target.id } } });
    await enqueueEmail(tx, leadReceivedEmail({ lead: toLead(inserted), ownerName: target.fullName, to: target.ownerEmail, baseUrl }));
    return inserted;
  });
  ctx.outbox.kick();
  return { stored: true, lead: toLead(row) };
}

async function ownProfile(ctx: AppContext, userId: string) {
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) throw notFound('Create your profile first');
  return profile;
}

/** The owner's leads, newest first, a page at a time. No profile yet: an empty list. */
export async function listLeads(ctx: AppContext, userId: string, page: { limit: number; offset: number }): Promise<LeadList> {
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) return { total: 0, leads: [], formEnabled: false };
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(leads).where(ownersLeads(ctx, profile.id, userId)),
    ctx.db
      .select()
      .from(leads)
      .where(ownersLeads(ctx, profile.id, userId))
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .limit(page.limit)
      .offset(page.offset),
  ]);
  return { total: Number(total?.n ?? 0), leads: rows.map(toLead), formEnabled: profile.leadFormEnabled };
}

/** Every lead of the owner for an export (newest first, capped at LEAD_EXPORT_MAX). */
export async function leadsForExport(ctx: AppContext, userId: string): Promise<Lead[]> {
  const profile = await findProfileRowByUser(ctx.db, userId);
  if (!profile) return [];
  const rows = await ctx.db
    .select()
    .from(leads)
    .where(ownersLeads(ctx, profile.id, userId))
    .orderBy(desc(leads.createdAt), desc(leads.id))
    .limit(LEAD_EXPORT_MAX);
  return rows.map(toLead);
}

/** Deletes one of the owner's leads; someone else's (or none) is 404. */
export async function deleteLead(ctx: AppContext, userId: string, id: number): Promise<void> {
  const profile = await ownProfile(ctx, userId);
  const gone = await ctx.db
    .delete(leads)
    .where(and(eq(leads.id, id), ownersLeads(ctx, profile.id, userId)))
    .returning({ id: leads.id });
  if (!gone.length) throw notFound('Lead not found');
}

export async function getLeadFormSetting(ctx: AppContext, userId: string): Promise<{ enabled: boolean }> {
  const profile = await ownProfile(ctx, userId);
  return { enabled: profile.leadFormEnabled };
}

/** Turns the public page's contact exchange form on or off (the cached page is dropped at once). */
export async function setLeadFormSetting(ctx: AppContext, userId: string, enabled: boolean): Promise<{ enabled: boolean }> {
  const profile = await ownProfile(ctx, userId);
  await setLeadFormEnabled(ctx, profile.id, enabled);
  return { enabled };
}
