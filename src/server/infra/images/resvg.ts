import fs from 'node:fs';
import { Resvg, type RenderedImage, type ResvgRenderOptions } from '@resvg/resvg-js';
import { noteNativeBytes } from '#server/infra/native-memory';

/**
 * The one place the server makes resvg objects (decision 32-11; tests/build/native-memory.test.ts
 * keeps it so). A parsed tree, its font database and a rendered pixmap are native memory freed only
 * when their JavaScript object is collected, which V8 does not know to do: every construction and
 * render here tells src/server/infra/native-memory.ts how much it made, so the thread collects
 * within a bounded budget.
 */

/** What loading the system's fonts costs a tree (fontdb reads every font file into memory). */
const SYSTEM_FONTS_BYTES = 32 * 1024 * 1024;
const fileSizes = new Map<string, number>();

function fileSize(file: string): number {
  let size = fileSizes.get(file);
  if (size === undefined) {
    try {
      size = fs.statSync(file).size;
    } catch {
      size = 0;
    }
    fileSizes.set(file, size);
  }
  return size;
}

/** About the native bytes of a parsed tree: its text several times over, plus the fonts it loaded. */
function treeBytes(svg: string | Buffer, opts: ResvgRenderOptions | undefined): number {
  const font = opts?.font;
  const system = font?.loadSystemFonts !== false;
  const files = (font?.fontFiles ?? []).reduce((n, f) => n + fileSize(f), 0);
  return svg.length * 4 + files + (system ? SYSTEM_FONTS_BYTES : 0);
}

/** Parses an SVG (throws on one resvg cannot read). */
export function loadSvg(svg: string | Buffer, opts?: ResvgRenderOptions): Resvg {
  const tree = new Resvg(svg, opts);
  noteNativeBytes(treeBytes(svg, opts));
  return tree;
}

/** Renders a parsed SVG to RGBA pixels. */
export function renderPixels(tree: Resvg): RenderedImage {
  const img = tree.render();
  noteNativeBytes(img.width * img.height * 4);
  return img;
}

/** An SVG as a PNG, in one step. */
export function svgToPng(svg: string | Buffer, opts?: ResvgRenderOptions): Buffer {
  return renderPixels(loadSvg(svg, opts)).asPng();
}
