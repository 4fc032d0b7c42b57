import { errorMessage } from '#web/lib/api';
import { toast } from '#web/lib/toast';

/** The team screens' two toasts: done, or the server's own message. */
export const done = (title: string, description?: string) => toast({ title, description });
export const failed = (err: unknown, title = 'That did not work') => toast({ title, description: errorMessage(err), variant: 'destructive' });
