import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database belongs to one process. A server on PGlite (and the move and restore
 * commands while they work) writes its process id to `DATA_DIR/server.pid`; another process finds
 * it there while that process lives. A file left by a process that died (kill -9, a crash) names
 * a process that is gone (or this very process, after a container restart reused the id) and is
 * taken over. Decision 38-02.
 */
export const LOCK_FILE = 'server.pid';

/** The process id holding `dataDir`, or null when nobody (alive) does. */
export function dataDirHolder(dataDir: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8');
  } catch {
    return null;
  }
  const pid = Number.parseInt(text.trim(), 10);
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    // Linux: a live process that is not Node.js reused the id of one that died (a restarted container)
    try {
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('node')) return null;
    } catch {
      // no /proc (not Linux): the process lives, trust it
    }
    return pid;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else: still alive
    return (e as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}

export class DataDirBusyError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid} (a running server, or a move or restore). Stop it first.`);
  }
}

/** Takes `dataDir` for this process; throws DataDirBusyError when a live process holds it. Returns the release. */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const holder = dataDirHolder(dataDir);
  if (holder !== null) throw new DataDirBusyError(dataDir, holder);
  const file = path.join(dataDir, LOCK_FILE);
  fs.writeFileSync(file, `${process.pid}\n`);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.once('exit', release);
  return release;
}
