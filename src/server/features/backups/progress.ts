/**
 * A one-line progress bar on a terminal (redrawn in place); on anything else (a log file, a test)
 * one line per step and per quarter, so logs stay short.
 */
export interface Progress {
  update(label: string, done: number, total: number): void;
  /** ends the current bar with a newline */
  done(): void;
  line(text: string): void;
}

export function createProgress(out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number } = process.stderr): Progress {
  const tty = !!out.isTTY;
  let last = '';
  let lastQuarter = -1;
  let open = false;
  let lastDraw = 0;
  return {
    update(label, done, total) {
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      if (tty) {
        const now = Date.now();
        if (label === last && done < total && now - lastDraw < 100) return;
        lastDraw = now;
        const width = 30;
        const filled = Math.round(ratio * width);
        const text = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${label} ${done}/${total}`;
        out.write(`\r${text.slice(0, (out.columns ?? 120) - 1).padEnd(Math.min(out.columns ?? 120, 100) - 1)}`);
        open = true;
        last = label;
        return;
      }
      const quarter = Math.floor(ratio * 4);
      if (label !== last) lastQuarter = -1;
      if (quarter !== lastQuarter) {
        out.write(`${label}: ${done}/${total}\n`);
        lastQuarter = quarter;
      }
      last = label;
    },
    done() {
      if (tty && open) out.write('\n');
      open = false;
      last = '';
    },
    line(text) {
      if (tty && open) out.write('\n');
      open = false;
      out.write(`${text}\n`);
    },
  };
}
