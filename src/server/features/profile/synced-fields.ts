import type { AppContext } from '#server/context';
import { badRequest } from '#server/http/http-errors';
import { storedPhone } from '#shared/profile/phone';
import { SCIM_FIELD_LABELS, SCIM_PROFILE_FIELDS, SYNCED_FIELD_MESSAGE, type ScimProfileField } from '#shared/schemas/scim';
import type { ProfileRow } from './profile-row';

/**
 * The profile fields the member's company directory keeps in sync (SCIM rule "always", issue 39,
 * decision 39-05). Profile sits below scim in the feature graph, so the routes get the reader from
 * the composition root (`routes.ts`); without it no field is synced.
 */
export type SyncedFieldsOf = (ctx: AppContext, userId: string) => Promise<readonly ScimProfileField[]>;

const isSyncedField = (f: string): f is ScimProfileField => (SCIM_PROFILE_FIELDS as readonly string[]).includes(f);

/**
 * A save that would change a synced field answers 400 naming each such field, before anything is
 * written: sending the stored value again is fine (the editor sends the whole form, the synced
 * fields shown locked). The save then leaves the synced fields as they are (a value equal but for
 * case or spaces is not written either). A first profile (none stored) has nothing to protect.
 */
export function refuseSyncedChanges(current: ProfileRow | null, sent: Record<string, unknown>, synced: readonly string[]): Set<ScimProfileField> {
  const fields = new Set(synced.filter(isSyncedField));
  if (!current || !fields.size) return new Set();
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const value = sent[f];
    if (value === undefined) continue;
    // a number saved before numbers were stored in E.164 compares as it reads now (decision 37-09)
    const own = f === 'phoneNumber' ? storedPhone(current.phoneNumber) : (current as Record<string, unknown>)[f];
    const same = (value ?? '') === (own ?? '') || String(value ?? '').trim().toLowerCase() === String(own ?? '').trim().toLowerCase();
    if (!same) errors[f] = SYNCED_FIELD_MESSAGE;
  }
  const refused = Object.keys(errors) as ScimProfileField[];
  if (refused.length) {
    const names = refused.map((f) => SCIM_FIELD_LABELS[f].label);
    throw badRequest(`${names.join(', ')}: ${refused.length > 1 ? 'these fields are' : 'this field is'} kept in sync with your company's directory. Ask your team owner to change it there.`, errors);
  }
  return fields;
}
