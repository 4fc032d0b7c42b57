import fs from 'node:fs';
import path from 'node:path';

/**
 * A copy of the embedded database's data dir with a short pause (decision 38-06). The online backup
 * needs the files as they are at one instant when no statement runs (a crash image, which PGlite
 * opens by replaying its WAL). Copying everything in that instant held every statement for a time
 * that grew with the data (2.4 s for 66 MB on a busy machine). Instead:
 *
 * 1. `copyLoose`, while statements run: every file is copied in short slices between statements,
 *    each with its stat taken just before and the time its copy started;
 * 2. `copyLoose` again over the same state: what changed meanwhile is copied again (smaller now);
 * 3. `copyChanged`, under the statement lock: every file is stat'ed and copied again only when it
 *    may have changed since its last copy (new, another inode, size, mtime, or an mtime not clearly
 *    older than that copy's start); files gone are removed from the copy.
 *
 * Why the rule in 3 is safe: a write after a copy started sets the file's mtime to at least that
 * start minus the clock's tick (a few ms); MARGIN_MS is far above the tick, so such a file is
 * copied again. A file whose mtime is older than its copy's start minus MARGIN_MS was not written
 * since before that copy read it. The stat comparison also catches a changed file when the wall
 * clock moved back.
 */

const MARGIN_MS = 1000;

interface Copied {
  mtimeMs: number;
  size: number;
  ino: number;
  /** Date.now() just before the copy started */
  startedAt: number;
}

type CopyState = Map<string, Copied>;

function mayHaveChanged(st: fs.Stats, c: Copied | undefined): boolean {
  return !c || st.ino !== c.ino || st.size !== c.size || st.mtimeMs !== c.mtimeMs || st.mtimeMs >= c.startedAt - MARGIN_MS;
}

function walkSync(root: string): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  const visit = (rel: string) => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? path.join(rel, e.name) : e.name;
      if (e.isDirectory()) {
        dirs.push(r);
        visit(r);
      } else if (e.isFile()) files.push(r);
    }
  };
  visit('');
  return { dirs, files };
}

/** Work between two yields of the loose passes: statements wait at most about this long for them. */
const SLICE_MS = 8;
const CHUNK = 1024 * 1024;

/**
 * Copies `from` to `to` while the database runs, or refreshes an earlier loose copy (files that may
 * have changed since). Answers the state for the next pass; the copy itself may be torn here.
 * Synchronous work in slices of about SLICE_MS (large files a megabyte at a time), yielding in
 * between so statements run: on the database's own thread (normal priority) this is neither
 * starved on a busy machine, as libuv's pool at nice 19 would be, nor a pause of its own.
 */
export async function copyLoose(from: string, to: string, state: CopyState = new Map()): Promise<CopyState> {
  let sliceStart = performance.now();
  const maybeYield = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((r) => setImmediate(r));
    sliceStart = performance.now();
  };
  const { dirs, files } = walkSync(from);
  fs.mkdirSync(to, { recursive: true });
  for (const d of dirs) fs.mkdirSync(path.join(to, d), { recursive: true });
  const buf = Buffer.allocUnsafe(CHUNK);
  for (const rel of files) {
    await maybeYield();
    const src = path.join(from, rel);
    let st: fs.Stats;
    try {
      st = fs.statSync(src);
    } catch {
      state.delete(rel); // gone meanwhile: the pass under the lock decides
      continue;
    }
    if (!mayHaveChanged(st, state.get(rel))) continue;
    const startedAt = Date.now();
    let inFd: number | undefined;
    let outFd: number | undefined;
    try {
      inFd = fs.openSync(src, 'r');
      outFd = fs.openSync(path.join(to, rel), 'w');
      for (let pos = 0; ; ) {
        const n = fs.readSync(inFd, buf, 0, CHUNK, pos);
        if (n <= 0) break;
        fs.writeSync(outFd, buf, 0, n);
        pos += n;
        await maybeYield();
      }
      state.set(rel, { mtimeMs: st.mtimeMs, size: st.size, ino: st.ino, startedAt });
    } catch {
      state.delete(rel);
    } finally {
      if (inFd !== undefined) fs.closeSync(inFd);
      if (outFd !== undefined) fs.closeSync(outFd);
    }
  }
  return state;
}

/**
 * The pass under the statement lock: afterwards `to` holds exactly `from`'s files as they are now.
 * Synchronous on purpose: nothing else runs on the database's thread meanwhile. Answers how many
 * files and bytes it copied.
 */
export function copyChanged(from: string, to: string, state: CopyState): { files: number; bytes: number } {
  const { dirs, files } = walkSync(from);
  for (const d of dirs) fs.mkdirSync(path.join(to, d), { recursive: true });
  const seen = new Set<string>();
  let copied = 0;
  let bytes = 0;
  for (const rel of files) {
    seen.add(rel);
    const st = fs.statSync(path.join(from, rel));
    if (!mayHaveChanged(st, state.get(rel))) continue;
    fs.copyFileSync(path.join(from, rel), path.join(to, rel));
    copied++;
    bytes += st.size;
  }
  // what the database removed since the loose copy
  const inCopy = walkSync(to);
  for (const rel of inCopy.files) if (!seen.has(rel)) fs.rmSync(path.join(to, rel), { force: true });
  const seenDirs = new Set(dirs);
  for (const d of inCopy.dirs.reverse()) if (!seenDirs.has(d)) fs.rmSync(path.join(to, d), { recursive: true, force: true });
  return { files: copied, bytes };
}
