/**
 * One process per DATA_DIR: two processes writing one embedded database (PGlite) corrupt it, so the
 * second refuses to start before opening anything. The lock is a file in the directory holding the
 * owner's pid, created exclusively with its content (written aside, then hard-linked into place, so
 * no one reads it empty); a lock whose pid no longer runs (the owner was killed) is taken over.
 * Released at shutdown, only while it still names this process.
 */
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const DATA_DIR_LOCK_FILE = "swapd.lock";

/** Another running process holds the directory. */
export class DataDirLockedError extends Error {
  override readonly name = "DataDirLockedError";
  constructor(
    readonly dataDir: string,
    readonly pid: number,
    readonly lockPath: string,
  ) {
    super(`DATA_DIR ${dataDir} is in use by another swapd process (pid ${pid}; ${lockPath}); stop it, or give this one another DATA_DIR`);
  }
}

export interface DataDirLock {
  readonly path: string;
  release(): void;
}

interface Owner {
  readonly pid: number;
  /** When the process started (Linux: clock ticks since boot), so a reused pid is not taken for the owner. */
  readonly started?: string;
}

/** A process's start time from /proc (Linux); undefined elsewhere or when it is gone. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces, in parentheses): state is field 3, starttime 22.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined; // no /proc (not Linux) or no such process: the pid alone decides
  }
}

function isRunning(owner: Owner): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user; ESRCH: no such process.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const started = owner.started === undefined ? undefined : startTimeOf(owner.pid);
  return started === undefined || started === owner.started;
}

/** The process a lock file names, or undefined when there is none or it names none. */
function ownerOf(path: string): Owner | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const [pidText, started] = text.trim().split(/\s+/);
  const pid = Number(pidText);
  return Number.isSafeInteger(pid) && pid > 0 ? { pid, ...(started ? { started } : {}) } : undefined;
}

/** Takes the lock of `dataDir` (created if new) for this process, or throws DataDirLockedError naming the owner. */
export function lockDataDir(dataDir: string): DataDirLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, DATA_DIR_LOCK_FILE);
  const aside = `${path}.${process.pid}`;
  writeFileSync(aside, `${process.pid} ${startTimeOf(process.pid) ?? ""}\n`);
  try {
    return take(dataDir, path, aside);
  } finally {
    rmSync(aside, { force: true });
  }
}

function take(dataDir: string, path: string, aside: string): DataDirLock {
  // Two rounds: a stale lock removed in the first is created anew in the second (or lost to a racer, then named).
  for (let round = 0; round < 2; round++) {
    try {
      linkSync(aside, path);
      return {
        path,
        release() {
          if (ownerOf(path)?.pid !== process.pid) return;
          try {
            unlinkSync(path);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = ownerOf(path);
    if (owner !== undefined && owner.pid !== process.pid && isRunning(owner)) throw new DataDirLockedError(dataDir, owner.pid, path);
    try {
      unlinkSync(path); // stale: its process is gone
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  throw new DataDirLockedError(dataDir, ownerOf(path)?.pid ?? 0, path);
}
