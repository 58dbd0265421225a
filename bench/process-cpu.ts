/**
 * CPU time used by a process (all its threads: JS, GC, libuv), from Linux `/proc`, so the bench can
 * say which process a request's CPU goes to. `undefined` where there is no /proc.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Linux reports utime/stime in clock ticks; USER_HZ is 100 on every mainstream architecture. */
const TICKS_PER_SECOND = 100;

/**
 * The process's CPU time in ms: the sum of its threads' on-CPU time in ns (`/proc/<pid>/task/<tid>/schedstat`),
 * else (no schedstat) utime + stime of `/proc/<pid>/stat`, which count in 10 ms ticks: 500 quotes
 * of ~0.2 ms are ~10 ticks, so a round's figure moved in steps of 10 %. A thread that ends between
 * two readings takes its time with it (the service's threads live as long as it does).
 */
export function processCpuMs(pid: number): number | undefined {
  return threadsCpuMs(pid) ?? statCpuMs(pid);
}

function threadsCpuMs(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch {
        // The thread ended while the others were read: its time is gone with it (see above).
      }
    }
    return ns > 0 ? ns / 1e6 : undefined;
  } catch {
    return undefined; // no /proc/<pid>/task (or the process is gone): the caller falls back to stat
  }
}

function statCpuMs(pid: number): number | undefined {
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
