import { z } from 'zod';

/** Single-line text: trimmed, no CR/LF or other control characters, capped. */
export const singleLine = (max: number, label = 'This field') =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), `${label} must be a single line of text`)
    .transform((s) => s.trim());

/** Multi-line text: newlines allowed, other control characters not. */
export const multiLine = (max: number, label = 'This field') =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .refine((s) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s), `${label} contains invalid characters`)
    .transform((s) => s.trim());

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

export const emailField = (message = 'Please enter a valid email address') =>
  z
    .string()
    .max(254, message)
    .transform((s) => s.trim())
    .refine((s) => EMAIL_RE.test(s), message);

export const isEmail = (s: string) => EMAIL_RE.test(s.trim());

/** http(s) URL only (javascript:, data: and the rest are refused). */
export const httpUrl = (message = 'Please enter a valid URL starting with http:// or https://') =>
  z
    .string()
    .max(2048, 'URL is too long')
    .transform((s) => s.trim())
    .refine((s) => {
      if (/[\u0000-\u001f\u007f\s]/.test(s)) return false;
      try {
        const u = new URL(s);
        return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
      } catch {
        return false;
      }
    }, message);

export const idParam = z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export interface ApiError {
  message: string;
  errors?: Record<string, string>;
}
