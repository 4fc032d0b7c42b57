import type { FormEvent, ReactNode, SelectHTMLAttributes } from 'react';
import type { LucideIcon } from 'lucide-react';
import { Button } from '#web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#web/components/ui/card';
import { Select } from '#web/components/ui/input';
import { Spinner } from '#web/components/ui/spinner';

/** The card holding an assistant tab's form: a title, a one-line explanation and the form itself. */
export function AiFormCard({
  title,
  description,
  className,
  formLabel,
  formClassName,
  onSubmit,
  children,
}: {
  title: string;
  description: string;
  className: string;
  /** the form's accessible name */
  formLabel: string;
  formClassName: string;
  onSubmit: (e: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Card className={className}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={onSubmit} className={formClassName} aria-label={formLabel}>
          {children}
        </form>
      </CardContent>
    </Card>
  );
}

/** The form's submit button: its icon and label, or a spinner and the pending label while the request runs. */
export function AiSubmitButton({ pending, icon: Icon, label, pendingLabel, spinnerLabel }: { pending: boolean; icon: LucideIcon; label: string; pendingLabel: string; spinnerLabel: string }) {
  return (
    <Button type="submit" variant="gold" className="w-full" disabled={pending}>
      {pending ? <Spinner className="size-4" label={spinnerLabel} /> : <Icon aria-hidden="true" />}
      {pending ? pendingLabel : label}
    </Button>
  );
}

/** What the result column shows before the first answer. */
export function ResultPlaceholder({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 p-10 text-center text-muted-foreground">
        <Icon aria-hidden="true" className="size-8 text-gold" />
        <p>{children}</p>
      </CardContent>
    </Card>
  );
}

/** A titled part of a result, named by its heading. */
export function ResultSection({ id, title, headingSpacing = 'mb-3', children }: { id: string; title: string; headingSpacing?: 'mb-1' | 'mb-3'; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className={`${headingSpacing} text-lg font-semibold`}>
        {title}
      </h3>
      {children}
    </section>
  );
}

/** A choice: its value, and the text shown for it when that differs from the value. */
export type Choice = string | { value: string | number; label: string };

/** A select listing `choices`, after an empty "nothing chosen" option when `placeholder` is given. */
export function ChoiceSelect({ choices, placeholder, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { choices: readonly Choice[]; placeholder?: string }) {
  return (
    <Select {...props}>
      {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
      {choices.map((c) => {
        const { value, label } = typeof c === 'string' ? { value: c, label: c } : c;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </Select>
  );
}
