import { Lock } from 'lucide-react';
import { LOCKED_FIELD_MESSAGE, brandOf, isLocked, teamValueOf, type LockableField } from '#shared/team/brand';
import { Input } from '#web/components/ui/input';
import { useAuth } from '#web/features/auth/use-auth';
import { useTeam } from '#web/features/team/api';

/** The caller's team's locks: whether a profile field is locked, and the team's value shown instead. */
export function useTeamLocks() {
  const { user } = useAuth();
  const { data } = useTeam(!!user);
  const team = data?.team;
  return (field: LockableField): { value: string } | null => {
    if (!team || !isLocked(team.brand, field)) return null;
    const value = teamValueOf({ ...team, brand: brandOf(team.brand) }, field);
    return { value: value === null ? '' : String(value) };
  };
}

/** A locked profile field: the team's value, read-only, and why. */
export function LockedInput({ id, value }: { id: string; value: string }) {
  return (
    <div className="space-y-1">
      <Input id={id} value={value} readOnly aria-readonly="true" aria-describedby={`${id}-locked`} className="bg-muted" />
      <p id={`${id}-locked`} className="flex items-center gap-1 text-xs text-muted-foreground" data-testid="locked-field">
        <Lock className="size-3" aria-hidden="true" /> {LOCKED_FIELD_MESSAGE}
      </p>
    </div>
  );
}
