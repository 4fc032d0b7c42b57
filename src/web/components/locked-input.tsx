import { Lock } from 'lucide-react';
import { LOCKED_FIELD_MESSAGE, type LockableField } from '#shared/team/brand';
import { Input } from '#web/components/ui/input';

/** Which profile fields a team locks: the team's value shown instead, or null when the field is free. */
export type FieldLocks = (field: LockableField) => { value: string } | null;

/** No field locked (no team, or a form shown outside the profile page). */
export const NO_LOCKS: FieldLocks = () => null;

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
