import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["action/src/**/*.test.ts", "action/test/**/*.test.ts"],
    // Tests spawn the real CLI and real tools; the machine has two noisy cores.
    testTimeout: 60_000,
    pool: "forks",
  },
});
