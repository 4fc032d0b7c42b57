import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '#server/db/schema/index';
import { Agent } from './test-app';

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}${crypto.randomBytes(2).toString('hex')}`;

export function userInput(overrides: Partial<Record<'username' | 'email' | 'password' | 'confirmPassword' | 'firstName' | 'lastName', string>> = {}) {
  const u = uniq();
  const password = overrides.password ?? 'correct-horse-1';
  return {
    username: `user_${u}`,
    email: `user_${u}@example.com`,
    password,
    confirmPassword: password,
    firstName: 'Ada',
    lastName: 'Lovelace',
    ...overrides,
  };
}

/** Registers a user through the API and returns a signed-in agent. */
export async function signedInAgent(app: FastifyInstance, overrides: Parameters<typeof userInput>[0] = {}) {
  const agent = new Agent(app);
  const input = userInput(overrides);
  const res = await agent.post('/api/auth/register', input);
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { agent, user: res.json() as { id: string; email: string; username: string; role: string }, input };
}

/** A signed-in admin: registers, promotes in the database, signs in again. */
export async function adminAgent(app: FastifyInstance) {
  const { agent, user, input } = await signedInAgent(app);
  await app.ctx.db.update(users).set({ role: 'admin' }).where(eq(users.id, user.id));
  return { agent, user: { ...user, role: 'admin' }, input };
}

/**
 * A signed-in user whose address is verified: what creating API tokens and webhooks needs (issue 33).
 * Those create requests also carry the account's password (`input.password`).
 */
export async function verifiedAgent(app: FastifyInstance, overrides: Parameters<typeof userInput>[0] = {}) {
  const signed = await signedInAgent(app, overrides);
  await app.ctx.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, signed.user.id));
  return signed;
}
