import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Where stored files' bytes live. Keys are server-made (e.g. "uploads/2026/ab12cd.webp"),
 * never taken from a client. Disk by default; an S3-compatible store implements the same interface.
 */
export interface Storage {
  readonly kind: string;
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<{ data: Buffer; contentType?: string } | null>;
  delete(key: string): Promise<void>;
  /** cheap check used by health summaries */
  check(): Promise<void>;
  /** releases connections at shutdown (object stores) */
  close?(): void;
}

const SAFE_KEY = /^[a-z0-9][a-z0-9/_.-]{0,200}$/;

export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.includes('..') || key.includes('//')) throw new Error(`unsafe storage key: ${key}`);
}

export class DiskStorage implements Storage {
  readonly kind = 'disk';
  constructor(private readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
  }
  private file(key: string) {
    assertSafeKey(key);
    return path.join(this.root, key);
  }
  async put(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    await fsp.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fsp.writeFile(tmp, data);
    await fsp.rename(tmp, file);
  }
  async get(key: string) {
    try {
      return { data: await fsp.readFile(this.file(key)) };
    } catch (e: any) {
      if (e.code === 'ENOENT') return null;
      throw e;
    }
  }
  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
  }
  async check(): Promise<void> {
    await fsp.access(this.root, fs.constants.W_OK);
  }
}
