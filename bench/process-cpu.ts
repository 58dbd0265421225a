/**
 * CPU time used by a process (all its threads: JS, GC, libuv), from Linux `/proc/<pid>/stat`, so
 * the bench can say which process a request's CPU goes to. `undefined` where there is no /proc.
 */
import { readFileSync } from "node:fs";

/** Linux reports utime/stime in clock ticks; USER_HZ is 100 on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return ((utime + stime) * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** This process (the load generator). */
export function ownCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
