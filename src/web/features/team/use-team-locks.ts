import { brandOf, isLocked, teamValueOf, type LockableField } from '#shared/team/brand';
import type { FieldLocks } from '#web/components/locked-input';
import { useAuth } from '#web/lib/session/use-auth';
import { useTeam } from './api';

/**
 * The caller's team's locks: whether a profile field is locked, and the team's value shown instead.
 * The profile page asks for them and passes them down to the profile's forms.
 */
export function useTeamLocks(): FieldLocks {
  const { user } = useAuth();
  const { data } = useTeam(!!user);
  const team = data?.team;
  return (field: LockableField) => {
    if (!team || !isLocked(team.brand, field)) return null;
    const value = teamValueOf({ ...team, brand: brandOf(team.brand) }, field);
    return { value: value === null ? '' : String(value) };
  };
}
