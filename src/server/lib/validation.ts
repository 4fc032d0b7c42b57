import type { FastifyTypeProvider, FastifySchemaCompiler } from 'fastify';
import { z } from 'zod';

/** Lets route handlers see `request.body` etc. typed from the zod schemas in `schema`. */
export interface ZodTypeProvider extends FastifyTypeProvider {
  validator: this['schema'] extends z.ZodType ? z.output<this['schema']> : unknown;
  serializer: this['schema'] extends z.ZodType ? z.input<this['schema']> : unknown;
}

export class RequestValidationError extends Error {
  constructor(
    public readonly issues: z.core.$ZodIssue[],
    public readonly part: string,
  ) {
    super(issues[0]?.message ?? 'Invalid input');
  }
}

/** zod does the validation; Fastify's Ajv is not used (no type coercion surprises). */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  return (data: unknown) => {
    const r = schema.safeParse(data);
    if (r.success) return { value: r.data };
    return { error: new RequestValidationError(r.error.issues, httpPart ?? 'body') as any };
  };
};

/** Turns zod issues into { "field.path": "message" } (first message per field). */
export function issuesToFieldErrors(issues: z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    let key = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        const kk = key ? `${key}.${k}` : k;
        out[kk] ??= `Unknown field: ${k}`;
      }
      continue;
    }
    if (!key) key = '_';
    out[key] ??= issue.message;
  }
  return out;
}

/** Parse anything (e.g. multipart fields) with a schema, throwing the same 400 as route validation. */
export function parseOrThrow<T extends z.ZodType>(schema: T, data: unknown, part = 'body'): z.output<T> {
  const r = schema.safeParse(data);
  if (!r.success) throw new RequestValidationError(r.error.issues, part);
  return r.data;
}
