import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import { hasTool } from './tools';

/**
 * Two QR readers nobody on this project wrote (issue 36): ZXing (zxing-wasm; its WebAssembly is read
 * from the installed package, never fetched) and ZBar (Debian's zbarimg).
 */
const require = createRequire(import.meta.url);
let ready = false;

function prepare() {
  if (ready) return;
  const wasmBinary = fs.readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({ overrides: { wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer }, fireImmediately: false });
  ready = true;
}

/** ZXing on PNG/JPEG bytes: the QR texts it finds (try-harder off: a plain phone-like read). */
export async function zxingRead(png: Uint8Array): Promise<string[]> {
  prepare();
  const res = await readBarcodes(png, { formats: ['QRCode'], tryHarder: false, maxNumberOfSymbols: 1 });
  return res.filter((r) => r.isValid).map((r) => r.text);
}

/** ZBar on PNG bytes: the QR texts it finds. */
export function zbarRead(png: Uint8Array): string[] {
  const file = path.join(os.tmpdir(), `zbar-${process.pid}-${Math.random().toString(36).slice(2)}.png`);
  fs.writeFileSync(file, png);
  try {
    const out = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Sqrcode.enable', '-Sbinary', file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return [out.replace(/\n$/, '')];
  } catch {
    return []; // exit status 4: no symbol found
  } finally {
    fs.rmSync(file, { force: true });
  }
}

export const zbarMissing = () => (hasTool('zbarimg') ? null : 'missing Debian tool: zbarimg (install zbar-tools; .ci/run does)');
