import { toast as sonner } from 'sonner';

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
}

/** Titled notification, default or destructive; the Toaster shows one at a time for 5000 ms. */
export function toast({ title, description, variant = 'default' }: ToastInput) {
  if (variant === 'destructive') return sonner.error(title, { description });
  return sonner(title, { description });
}
