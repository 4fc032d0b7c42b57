import type { HTMLAttributes } from 'react';
import { cva, type VariantProps } from 'class-variance-authority';
import { cn } from '#web/lib/utils';

const badgeVariants = cva('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', {
  variants: {
    variant: {
      default: 'border-transparent bg-primary text-primary-foreground',
      secondary: 'border-transparent bg-secondary text-secondary-foreground',
      outline: 'text-foreground',
      yellow: 'border-transparent bg-yellow-500/20 text-yellow-700 dark:text-yellow-300',
      blue: 'border-transparent bg-blue-500/20 text-blue-700 dark:text-blue-300',
      green: 'border-transparent bg-green-500/20 text-green-700 dark:text-green-300',
      red: 'border-transparent bg-red-500/20 text-red-700 dark:text-red-300',
      grey: 'border-transparent bg-gray-500/20 text-gray-700 dark:text-gray-300',
    },
  },
  defaultVariants: { variant: 'default' },
});

export function Badge({ className, variant, ...props }: HTMLAttributes<HTMLSpanElement> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
