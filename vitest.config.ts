import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Kills, at the end of the run, any process a test started and left running (test/fixtures/global-setup.ts).
    globalSetup: ["test/fixtures/global-setup.ts"],
    environment: "node",
    // litesvm is a native addon: child processes are safer than worker threads.
    pool: "forks",
    // Most files wait on child processes, sockets and the chain rather than compute: more forks than
    // cores overlap the waiting (vitest's default is one fewer than the cores, i.e. one on a 2-core CI).
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
