import type { z } from 'zod';

/**
 * Makes a VALID example value for a zod schema by trying candidates field by field (each checked
 * with the field's own schema, then the whole object with its refinements). Generic on purpose:
 * a route added later gets a valid body without anyone writing one, so fuzzing can mutate one
 * field at a time and reach past validation. Returns undefined when no valid value is found.
 */

const STRINGS = [
  'Grace Hopper',
  'grace.hopper@example.com',
  'correct-horse-1',
  'https://example.com/page',
  '+1 212 555 0100',
  'abcdefgh12345678',
  'grace_hopper',
  'Navy Labs',
  'Hello, this is a fine sentence of text.',
  '#112233',
  '2025-01-01T00:00:00.000Z',
  '2025-01-01',
  '17',
  '1',
  'x',
  'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
  'front',
  // words of the product's own lists (industries, moods, styles...) checked by refinements
  'Technology',
  'Professional',
  'Modern',
  'Matte',
  'standard',
  'minimal',
];
const NUMBERS = [17, 1, 100, 250, 5, 3, 0, 0.5, 2025];

type Def = { type: string; [k: string]: any };
const defOf = (s: any): Def | undefined => s?._zod?.def;

function candidates(schema: any, depth: number): unknown[] {
  const def = defOf(schema);
  if (!def || depth > 6) return [];
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return [...candidates(def.innerType, depth + 1), undefined];
    case 'nullable':
      return [...candidates(def.innerType, depth + 1), null];
    case 'pipe': {
      // z.preprocess(fn, schema) is a pipe from a transform: the output schema says what is valid
      const c = candidates(def.in, depth + 1);
      return c.length ? c : candidates(def.out, depth + 1);
    }
    case 'lazy':
      return candidates(def.getter(), depth + 1);
    case 'enum':
      return Object.values(def.entries ?? {});
    case 'literal':
      return [...(def.values ?? [])];
    case 'union':
      return (def.options ?? []).flatMap((o: any) => candidates(o, depth + 1));
    case 'string':
      return STRINGS;
    case 'number':
    case 'int':
      return NUMBERS;
    case 'bigint':
      return [];
    case 'boolean':
      return [true, false];
    case 'null':
      return [null];
    case 'array': {
      const el = exampleOf(def.element, depth + 1);
      return el === undefined ? [[]] : [[], [el]];
    }
    case 'record':
      return [{}];
    case 'object': {
      const o = objectExample(schema, depth + 1);
      return o === undefined ? [] : [o];
    }
    case 'any':
    case 'unknown':
      return ['x', {}];
    default:
      return [];
  }
}

function firstValid(schema: any, depth: number): { ok: boolean; value?: unknown } {
  for (const c of candidates(schema, depth)) {
    if (schema.safeParse(c).success) return { ok: true, value: c };
  }
  return { ok: false };
}

function objectExample(schema: any, depth: number): Record<string, unknown> | undefined {
  const shape: Record<string, any> = defOf(schema)?.shape ?? {};
  const out: Record<string, unknown> = {};
  const lists: Record<string, unknown[]> = {};
  const index: Record<string, number> = {};
  for (const [k, field] of Object.entries(shape)) {
    lists[k] = candidates(field, depth).filter((c) => field.safeParse(c).success);
    index[k] = 0;
    if (lists[k].length === 0) {
      if (field.safeParse(undefined).success) continue;
      return undefined;
    }
    if (lists[k][0] !== undefined) out[k] = lists[k][0];
  }
  // object-level rules (e.g. "passwords must match"): move the fields they name to other candidates
  for (let pass = 0; pass < 8; pass++) {
    const r = schema.safeParse(out);
    if (r.success) return out;
    let moved = false;
    for (const issue of r.error.issues as Array<{ path: PropertyKey[] }>) {
      const k = String(issue.path[0] ?? '');
      if (!lists[k] || index[k] + 1 >= lists[k].length) continue;
      index[k]++;
      const v = lists[k][index[k]];
      if (v === undefined) delete out[k];
      else out[k] = v;
      moved = true;
    }
    if (!moved) {
      // equal-values rules: copy one field's value into every other string field that failed
      const failing = (r.error.issues as Array<{ path: PropertyKey[] }>).map((i) => String(i.path[0] ?? '')).filter((k) => k in out);
      const source = Object.keys(out).find((k) => !failing.includes(k) && typeof out[k] === 'string' && /pass/i.test(k));
      if (!source) return undefined;
      for (const k of failing) out[k] = out[source];
    }
  }
  return schema.safeParse(out).success ? out : undefined;
}

export function exampleOf(schema: z.ZodType | undefined, depth = 0): unknown {
  if (!schema) return undefined;
  const r = firstValid(schema, depth);
  return r.ok ? r.value : undefined;
}
