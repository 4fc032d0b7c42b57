import type OpenAI from 'openai';
import { z } from 'zod';
import type { AppConfig } from '#server/env';

/**
 * An OpenAI-compatible chat model (OpenAI, Azure-compatible gateways, Ollama, vLLM, LM Studio...)
 * asked for JSON and checked with zod. Used only when configured (AI_BASE_URL or AI_API_KEY);
 * every failure (network, HTTP error, timeout, malformed or invalid JSON) is reported as a
 * ModelError so the caller can fall back to the built-in engine.
 */

export const DEFAULT_MODEL = 'gpt-4o-mini';

export class ModelError extends Error {
  constructor(
    message: string,
    public readonly kind: 'timeout' | 'http' | 'format' | 'invalid',
  ) {
    super(message);
  }
}

export interface ChatModel {
  readonly model: string;
  readonly baseUrl: string;
  /** sends the messages and returns the reply parsed as JSON and validated by `schema` */
  json<T extends z.ZodType>(schema: T, system: string, user: string): Promise<z.output<T>>;
}

export function chatModelConfigured(config: Pick<AppConfig, 'AI_BASE_URL' | 'AI_API_KEY'>): boolean {
  return !!(config.AI_BASE_URL || config.AI_API_KEY);
}

export function createChatModel(config: Pick<AppConfig, 'AI_BASE_URL' | 'AI_API_KEY' | 'AI_MODEL' | 'AI_TIMEOUT_MS'>): ChatModel | null {
  if (!chatModelConfigured(config)) return null;
  const timeout = config.AI_TIMEOUT_MS;
  // the client library (about 14 MB resident) loads with the first request, not with the server
  let client: Promise<{ client: OpenAI; TimeoutError: typeof OpenAI.APIConnectionTimeoutError }> | null = null;
  const connect = () =>
    (client ??= import('openai').then(({ default: Client }) => ({
      client: new Client({
        // local servers (Ollama, vLLM) need no key, but the client wants a value
        apiKey: config.AI_API_KEY ?? 'not-needed',
        baseURL: config.AI_BASE_URL,
        timeout,
        maxRetries: 0,
      }),
      TimeoutError: Client.APIConnectionTimeoutError,
    })));
  const model = config.AI_MODEL ?? DEFAULT_MODEL;
  return {
    model,
    baseUrl: config.AI_BASE_URL ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    async json(schema, system, user) {
      const signal = AbortSignal.timeout(timeout);
      let content: string | null | undefined;
      const { client: api, TimeoutError } = await connect();
      try {
        const res = await api.chat.completions.create(
          {
            model,
            temperature: 0.4,
            response_format: { type: 'json_object' },
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: user },
            ],
          },
          { signal, timeout },
        );
        content = res.choices?.[0]?.message?.content;
      } catch (e) {
        if (signal.aborted || e instanceof TimeoutError || (e as Error)?.name === 'AbortError') {
          throw new ModelError(`model timed out after ${timeout} ms`, 'timeout');
        }
        const status = (e as { status?: number }).status;
        throw new ModelError(`model request failed${status ? ` (HTTP ${status})` : ''}: ${(e as Error)?.message ?? e}`, 'http');
      }
      if (!content) throw new ModelError('model returned no content', 'format');
      let parsed: unknown;
      try {
        parsed = JSON.parse(stripFences(content));
      } catch {
        throw new ModelError('model reply is not JSON', 'format');
      }
      const r = schema.safeParse(parsed);
      if (!r.success) throw new ModelError(`model reply failed validation: ${r.error.issues[0]?.path.join('.')} ${r.error.issues[0]?.message}`, 'invalid');
      return r.data;
    },
  };
}

/** Some models wrap JSON in ```json fences despite being asked not to. */
export function stripFences(s: string): string {
  const t = s.trim();
  const m = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(t);
  return m ? m[1] : t;
}
