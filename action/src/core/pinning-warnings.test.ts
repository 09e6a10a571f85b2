import { describe, expect, it } from "vitest";
import type { Environment } from "../schemas/summary.gen.ts";
import { pinningWarnings } from "./environment.ts";

describe("pinningWarnings", () => {
  it("says what each of the machine's warnings means for the timings", () => {
    const noisy = {
      logical_cpus: 2,
      load_average: [0.86, 0.5, 0.4],
      governor: "powersave",
      turbo: true,
      smt: "on",
    } as unknown as Environment;
    expect(pinningWarnings(noisy)).toEqual([
      'CPU governor is "powersave", not "performance": the clock speed follows the load, so timings drift (a dedicated runner sets the performance governor)',
      "turbo/boost is on: the clock speed depends on heat and on what the other cores do, so timings drift (a dedicated runner turns it off)",
      "SMT (hyper-threading) is on: work on a benchmark's sibling thread slows it, so timings are noisier (a dedicated runner turns SMT off or keeps the siblings idle)",
      "load average 0.86 at start on 2 CPUs: other work is running on this machine, so timings are noisier (a dedicated, pinned runner avoids it)",
    ]);
  });

  it("says nothing of a pinned, idle machine", () => {
    const pinned = {
      logical_cpus: 2,
      load_average: [0.1, 0.1, 0.1],
      governor: "performance",
      turbo: false,
      smt: "off",
    } as unknown as Environment;
    expect(pinningWarnings(pinned)).toEqual([]);
  });
});
