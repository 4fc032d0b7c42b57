import { eq } from 'drizzle-orm';
import type { AppContext } from '#server/context';
import { profiles } from '#server/db/schema/profile';
import { invalidatePublicProfile } from './public-profile.cache';

/** The profile fields a company's directory may fill (SCIM, issue 39, decision 39-02). */
export interface DirectoryProfileFields {
  fullName?: string;
  jobTitle?: string | null;
  email?: string | null;
  phoneNumber?: string | null;
  address?: string | null;
  companyName?: string | null;
}

/**
 * Writes the fields the team's directory keeps in sync onto the member's profile (values checked
 * by the caller against the profile's own field rules); the public page follows. No profile: nothing.
 */
export async function setDirectoryFields(ctx: AppContext, userId: string, fields: DirectoryProfileFields): Promise<void> {
  const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
  if (!Object.keys(set).length) return;
  const rows = await ctx.db
    .update(profiles)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(profiles.userId, userId))
    .returning({ id: profiles.id });
  for (const r of rows) invalidatePublicProfile(ctx, r.id);
}
