import { describe, expect, it } from "vitest";
import type { ProcessPort } from "../ports/process.ts";
import { StepTimings, stepKind } from "./step-timings.ts";

describe("stepKind", () => {
  it("names cargo by its role and a bench executable run directly by what it is", () => {
    expect(stepKind(["cargo", "bench", "--no-run", "--bench", "demo"])).toBe("cargo build");
    expect(stepKind(["cargo", "bench", "--bench", "demo", "--", "--list"])).toBe("cargo bench");
    expect(stepKind(["/usr/bin/hyperfine", "--style", "basic"])).toBe("hyperfine");
    // schedule: pairs runs `target/release/deps/demo-<hash> --bench …`: one name, not one per hash.
    expect(stepKind(["/t/release/deps/demo-0bee31d624d3f9af", "--bench", "--noplot"])).toBe(
      "bench executable",
    );
  });
});

describe("StepTimings", () => {
  it("counts every process of a wrapped port under what it is, or under the step it is given", async () => {
    const timings = new StepTimings();
    const proc: ProcessPort = (argv) =>
      Promise.resolve({
        exitCode: 0,
        signal: null,
        timedOut: false,
        aborted: false,
        stdout: "",
        stderrTail: "",
        durationMs: argv[0] === "cargo" ? 1500 : 250,
      });
    const options = { cwd: "/w", env: {}, timeoutMs: 1000 };
    const plain = timings.wrap(proc);
    const where = timings.wrap(proc, "valgrind (where)");
    await plain(["cargo", "bench", "--no-run"], options);
    await where(["setarch", "-R", "valgrind", "--tool=callgrind"], options);
    await where(["setarch", "-R", "valgrind", "--tool=callgrind"], options);
    expect(timings.document(3000)).toEqual({
      wall_ms: 3000,
      tools_ms: 2000,
      own_ms: 1000,
      steps: [
        { step: "cargo build", count: 1, ms: 1500 },
        { step: "valgrind (where)", count: 2, ms: 500 },
      ],
    });
  });
});
