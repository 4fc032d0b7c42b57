import { Lock } from 'lucide-react';
import { SCIM_FIELD_LABELS } from '#shared/schemas/scim';
import { useSyncedFields } from '#web/features/scim/api';

/**
 * Above the profile form of a member their company's directory provisions (issue 39): which
 * fields the directory keeps in sync, locked (the directory's next update replaces them).
 */
export function SyncedFieldsNotice({ fields }: { fields: readonly string[] }) {
  const { data } = useSyncedFields(fields.length > 0);
  if (!fields.length || !data) return null;
  return (
    <div className="mb-6 flex items-start gap-2 rounded-md border bg-muted/50 p-3 text-sm" role="note" id="synced-fields-note" data-testid="synced-fields">
      <Lock className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <p>
        <span className="font-medium">{data.message}:</span> {data.fields.filter((f) => fields.includes(f)).map((f) => SCIM_FIELD_LABELS[f].label).join(', ')}. Changes to these fields are replaced by your
        company&apos;s directory at its next update; ask your administrator to change them.
      </p>
    </div>
  );
}
