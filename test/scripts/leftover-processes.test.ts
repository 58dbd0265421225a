// The run's teardown (test/fixtures/global-setup.ts) kills what a test left running: here a detached
// child carrying a run mark of its own (so no other test's children are touched), while a child
// without the mark is left alone.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { killMarked, MARK } from "../fixtures/global-setup.js";

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function sleeper(env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn("sleep", ["600"], { detached: true, stdio: "ignore", env });
  started.push(child);
  return child;
}

it.skipIf(!existsSync("/proc/self/environ"))("kills a left-behind child carrying the run's mark, and only such children", async () => {
  const run = randomUUID();
  const marked = sleeper({ ...process.env, [MARK]: run });
  const unmarked = sleeper({ PATH: process.env["PATH"] });
  const markedEnded = new Promise((resolve) => marked.once("exit", (_code, signal) => resolve(signal)));
  // The child's environment is readable once it has exec'd `sleep`: wait for its spawn event.
  await Promise.all([new Promise((r) => marked.once("spawn", r)), new Promise((r) => unmarked.once("spawn", r))]);
  const killed = killMarked(run);
  expect(killed).toEqual([expect.stringMatching(new RegExp(`^${marked.pid} sleep 600$`))]);
  expect(await markedEnded).toBe("SIGKILL");
  expect(unmarked.exitCode).toBeNull();
  expect(unmarked.signalCode).toBeNull();
});
