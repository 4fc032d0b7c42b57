import { execFileSync, spawnSync } from 'node:child_process';

/**
 * The Debian validators of issue 36 (docs/standards.md). `.ci/run` installs them; a test that needs
 * one skips, naming it, only when it is missing on this machine.
 */
export function hasTool(tool: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).status === 0;
}

export function missingTools(...tools: string[]): string | null {
  const missing = tools.filter((t) => !hasTool(t));
  return missing.length ? `missing Debian tool(s): ${missing.join(', ')} (install qpdf poppler-utils zbar-tools; .ci/run does)` : null;
}

export const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8' });

/** Names and companies in the scripts our customers write (Latin Extended, Greek, Cyrillic, Vietnamese). */
export const NAMES_IN_SCRIPTS = [
  "Zoë O'Brien-Łukasz",
  'Müller & Söhne, Inc.',
  'Łucja Żółkiewska-Wąsowicz',
  'Jiří Dvořák Šťastný',
  'Gülşen Çağlar İğdırlı',
  'Γιώργος Παπαδόπουλος',
  'Анна Кузнецова-Щербакова',
  'Nguyễn Thị Hương Đặng',
];
