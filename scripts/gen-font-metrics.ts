/**
 * Writes src/shared/templates/font-metrics.ts: the advance widths of the bundled TTF fonts
 * (printable ASCII, Latin-1 and Latin Extended-A) so shared code can measure text the same way
 * in the browser and on the server, and fit long names to a card. Run: npx tsx scripts/gen-font-metrics.ts
 * A test (font-metrics.test.ts) fails if the table no longer matches the installed fonts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeFontMetricsSource } from '../src/server/features/templates/font-metrics-source';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'src/shared/templates/font-metrics.ts');
fs.writeFileSync(out, computeFontMetricsSource());
console.log(`wrote ${path.relative(root, out)}`);
