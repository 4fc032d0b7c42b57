import type { z } from 'zod';

/** Checks form values with the shared contract: the first message per field, as the server answers. */
export function validateForm<T extends z.ZodType>(schema: T, values: unknown): { ok: true; data: z.output<T> } | { ok: false; errors: Record<string, string> } {
  const r = schema.safeParse(values);
  if (r.success) return { ok: true, data: r.data };
  const errors: Record<string, string> = {};
  for (const issue of r.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** validateForm, with the outcome shown on the form: its field errors, or none when the values pass. */
export function validateAndShow<T extends z.ZodType>(schema: T, values: unknown, setErrors: (errors: Record<string, string>) => void) {
  const v = validateForm(schema, values);
  setErrors(v.ok ? {} : v.errors);
  return v;
}
