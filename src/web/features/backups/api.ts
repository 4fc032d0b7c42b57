import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getAdminBackups, postAdminBackups } from '#shared/contracts/backups';
import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';
import { callEndpoint, endpointKey, endpointQuery } from '#web/lib/endpoint';

/** Staff: the embedded database's backups (issue 38, decision 38-02). */
export const useBackups = () => useQuery(endpointQuery(getAdminBackups));

export function useBackUpNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => callEndpoint(postAdminBackups, { body: {} }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: endpointKey(getAdminBackups) });
      toast({ title: 'Backup written', description: `${r.backup.name} (${formatBytes(r.backup.sizeBytes)})` });
    },
    onError: (err) => {
      void qc.invalidateQueries({ queryKey: endpointKey(getAdminBackups) });
      toast({ title: 'Backup failed', description: errorMessage(err, 'Please try again.'), variant: 'destructive' });
    },
  });
}

/** "12.4 MB" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
