import { describe, expect, it } from "vitest";
import { DEFAULT_PROCESS_TIME } from "../config/suites/criterion/process-time.ts";
import { expectedProcessMs, overlongIds } from "./overlong-processes.ts";

describe("expectedProcessMs", () => {
  it("is the warm-up and the measurement, or the least a slow benchmark's samples take", () => {
    expect(expectedProcessMs(40, DEFAULT_PROCESS_TIME)).toBe(700);
    // 20 ms per iteration: 55 iterations for 10 samples are 1.1 s, more than the 0.5 s asked.
    expect(expectedProcessMs(20e6, DEFAULT_PROCESS_TIME)).toBeCloseTo(1300, 6);
  });
});

describe("overlongIds", () => {
  const ns = new Map([
    ["fast", 40],
    ["slow-iteration", 20e6],
    ["in-code", 40],
  ]);

  it("flags a process far longer than its benchmark needs, not a slow iteration or a busy machine", () => {
    const units = [
      // Twice the expected 0.7 s on a busy machine: 1.4 s plus start-up.
      { ids: ["fast"], ms: 1_900 },
      { ids: ["slow-iteration"], ms: 1_600 },
      // warm_up_time(500ms) and measurement_time(3s) in code.
      { ids: ["in-code"], ms: 3_800 },
    ];
    expect(overlongIds(units, ns, DEFAULT_PROCESS_TIME)).toEqual(["in-code"]);
  });

  it("sums a unit's benchmarks (a claim's pair runs in one process)", () => {
    // Expected 2 × 0.7 s: flagged above 2 × 1.4 s + 1 s.
    expect(
      overlongIds([{ ids: ["fast", "in-code"], ms: 3_700 }], ns, DEFAULT_PROCESS_TIME),
    ).toEqual([]);
    expect(
      overlongIds([{ ids: ["fast", "in-code"], ms: 3_900 }], ns, DEFAULT_PROCESS_TIME),
    ).toEqual(["fast", "in-code"]);
  });
});
