import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Kills, at the end of the run, any process a test started and left running (test/fixtures/global-setup.ts).
    globalSetup: ["test/fixtures/global-setup.ts"],
    environment: "node",
    // litesvm is a native addon: child processes are safer than worker threads.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
