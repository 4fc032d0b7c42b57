import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { withNodeEnv } from '../../scripts/node-env.mjs';

const run = withNodeEnv as <T>(value: string, fn: () => Promise<T> | T) => Promise<T>;
const saved = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = saved;
});

describe('withNodeEnv (the build under npm start, npm test and npm run build)', () => {
  it('sets NODE_ENV while the function runs and restores the previous value', async () => {
    process.env.NODE_ENV = 'test';
    const inside = await run('production', () => process.env.NODE_ENV);
    expect(inside).toBe('production');
    expect(process.env.NODE_ENV).toBe('test');
  });

  it('leaves NODE_ENV unset when it was unset (not the string "undefined"), also after a failure', async () => {
    delete process.env.NODE_ENV;
    await run('production', () => undefined);
    expect('NODE_ENV' in process.env).toBe(false);
    await expect(run('production', () => Promise.reject(new Error('build failed')))).rejects.toThrow('build failed');
    expect('NODE_ENV' in process.env).toBe(false);
  });
});
