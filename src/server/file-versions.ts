/**
 * Polls files for a new version (a rename swaps the inode, an edit moves mtime or size), compared with
 * the version the caller loaded — not with the poll's own first look, as `fs.watchFile` does: its
 * baseline is taken after it starts, so a file replaced between the load and that first stat would
 * never count as changed.
 */
import fs from "node:fs";

export function fileVersion(st: fs.Stats): string {
  return `${st.dev}:${st.ino}:${st.mtimeMs}:${st.size}`;
}

/** The file's version now; "" when it cannot be read (a later version then always differs). */
export function currentFileVersion(path: string): string {
  try {
    return fileVersion(fs.statSync(path));
  } catch {
    // Unreadable now: the poll reports it once it is there again.
    return "";
  }
}

export interface FileVersionPoll {
  close(): void;
}

/**
 * Every `pollMs`, stats each file and calls `onChange(path)` when its version differs from the last one
 * known (initially `loaded`, the versions the caller read). A file missing for a moment is not a change.
 */
export function pollFileVersions(loaded: ReadonlyMap<string, string>, pollMs: number, onChange: (path: string) => void): FileVersionPoll {
  const known = new Map(loaded);
  const timer = setInterval(() => {
    for (const path of known.keys())
      fs.stat(path, (err, st) => {
        if (err) return; // replaced by delete + create: seen at a later poll, the loaded content stays in force
        const version = fileVersion(st);
        if (version === known.get(path)) return;
        known.set(path, version);
        onChange(path);
      });
  }, pollMs).unref();
  return { close: () => clearInterval(timer) };
}
