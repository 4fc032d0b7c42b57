import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../auth-rules';
import { emailField, singleLine } from './common';

export { PASSWORD_MAX, PASSWORD_MIN };

export const passwordField = z
  .string()
  .min(PASSWORD_MIN, 'Password must be at least 6 characters long.')
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters long.`);

export const RegisterBody = z
  .strictObject({
    username: singleLine(40, 'Username').pipe(
      z
        .string()
        .min(1, 'Please fill in all required fields.')
        .regex(/^[A-Za-z0-9._-]+$/, 'Username may use letters, numbers, dots, dashes and underscores'),
    ),
    email: emailField('Please enter a valid email address'),
    password: passwordField,
    confirmPassword: z.string().max(PASSWORD_MAX, "Passwords don't match"),
    firstName: singleLine(80, 'First name').optional().default(''),
    lastName: singleLine(80, 'Last name').optional().default(''),
  })
  .refine((v) => v.password === v.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] });
export type RegisterInput = z.input<typeof RegisterBody>;

export const LoginBody = z.strictObject({
  email: z
    .string()
    .trim()
    .min(1, 'Please enter your email and password.')
    .max(254, 'Please check your email and password.')
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'Please check your email and password.'),
  password: z.string().min(1, 'Please enter your email and password.').max(PASSWORD_MAX, 'Please check your email and password.'),
});
export type LoginInput = z.infer<typeof LoginBody>;

export interface AuthUser {
  id: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  role: 'user' | 'admin';
  createdAt: string;
}

export const SubscribeBody = z.strictObject({
  email: emailField('Please enter a valid email address'),
});
