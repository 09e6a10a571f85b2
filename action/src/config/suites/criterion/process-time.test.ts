import { describe, expect, it } from "vitest";
import {
  criterionShortFlags,
  DEFAULT_PROCESS_TIME,
  effectiveTime,
  takesWholeSeconds,
} from "./process-time.ts";
import { setsOption } from "../harness-flags.ts";

describe("takesWholeSeconds: Criterion's time flags", () => {
  it("are whole seconds before 0.4, decimals from 0.4 on; unknown counts as whole", () => {
    expect(takesWholeSeconds(["0.3.6"])).toBe(true);
    expect(takesWholeSeconds(["0.2.11"])).toBe(true);
    expect(takesWholeSeconds(["0.4.0"])).toBe(false);
    expect(takesWholeSeconds(["0.5.1", "0.8.2"])).toBe(false);
    expect(takesWholeSeconds(["1.0.0"])).toBe(false);
    // A side on 0.3 and a side on 0.5: the flags must suit both.
    expect(takesWholeSeconds(["0.5.1", "0.3.6"])).toBe(true);
    expect(takesWholeSeconds([])).toBe(true);
    expect(takesWholeSeconds(["x.y"])).toBe(true);
  });
});

describe("criterionShortFlags", () => {
  it("adds the short times and the sample size: 0.2 s, 0.5 s, 10", () => {
    expect(criterionShortFlags([], DEFAULT_PROCESS_TIME, false)).toEqual({
      added: ["--warm-up-time", "0.2", "--measurement-time", "0.5", "--sample-size", "10"],
      kept: [],
    });
  });

  it("rounds up to whole seconds, at least one, for Criterion before 0.4", () => {
    expect(criterionShortFlags([], DEFAULT_PROCESS_TIME, true).added).toEqual([
      "--warm-up-time",
      "1",
      "--measurement-time",
      "1",
      "--sample-size",
      "10",
    ]);
    const long = { warmUpMs: 1500, measurementMs: 3000, samples: 20 };
    expect(effectiveTime(long, true)).toEqual({ warmUpMs: 2000, measurementMs: 3000, samples: 20 });
  });

  it("leaves each flag the suite's args set to the user, in either spelling", () => {
    const args = ["--noise-threshold", "0.05", "--measurement-time=3", "--sample-size", "50"];
    expect(criterionShortFlags(args, DEFAULT_PROCESS_TIME, false)).toEqual({
      added: ["--warm-up-time", "0.2"],
      kept: ["--measurement-time", "--sample-size"],
    });
  });
});

describe("setsOption: hyperfine's counts", () => {
  it("finds the long and short spellings, not a longer option that starts the same", () => {
    for (const args of [["--warmup", "3"], ["--warmup=3"], ["-w", "3"], ["-w3"], ["-w=3"]])
      expect(setsOption(args, "--warmup", "-w"), args.join(" ")).toBe(true);
    for (const args of [["--warmups"], ["-N"], ["--shell=none"], ["-wx"]])
      expect(setsOption(args, "--warmup", "-w"), args.join(" ")).toBe(false);
  });
});
