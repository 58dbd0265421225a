import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
    // litesvm is a native addon: child processes are safer than worker threads.
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
