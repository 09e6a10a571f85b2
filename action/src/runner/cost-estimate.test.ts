import { describe, expect, it } from "vitest";
import { PLANS } from "../../test/support/fake-runner.ts";
import type { RunConfig } from "../config/run-config.ts";
import { describeCost, PaceWatch, plannedCost } from "./cost-estimate.ts";
import { Progress } from "./progress.ts";

const { micro, cli, harness } = PLANS;
const ids = Array.from({ length: 20 }, (_, i) => `b${i}`);
const LISTED = new Map([["micro", ids]]);
const config = (extra: Partial<RunConfig> = {}): RunConfig => ({
  source: "benchgate.yml",
  rounds: 5,
  schedule: "pairs",
  build: [],
  buildTimeoutMs: 1000,
  suites: [micro, cli],
  ...extra,
});
const SAID = "(estimated from the suites' settings; round 1 measures it)";

describe("plannedCost and describeCost", () => {
  it("pairs: Criterion's short processes per listed benchmark, hyperfine's runs per command", () => {
    const c = config();
    const cost = plannedCost(c, LISTED);
    // 20 × (0.2 + 0.5 + 0.3 s) and 2 × (11 runs × 50 ms + 0.3 s) + 0.3 s per side, 1 s a round.
    expect(cost).toEqual({
      benchmarks: 22,
      suites: 2,
      unknown: [],
      roundMs: 45_000,
      suiteMs: new Map([
        ["micro", 40_000],
        ["cli", 4_000],
      ]),
    });
    expect(describeCost(cost, c, { elapsedMs: 60_000 })).toBe(
      `plan: 22 benchmarks in 2 suites, about 0:45 a round: 5 rounds, about 3:45 ${SAID}`,
    );
    expect(describeCost(cost, c, { elapsedMs: 0, aba: true })).toContain(
      "base, head, base, about 1:08",
    );
  });

  it("sequential rounds: from min-rounds to max-rounds, capped by what the budget leaves", () => {
    const c = config({ rounds: 15, sequential: { minRounds: 3, timeBudgetMs: 600_000 } });
    expect(describeCost(plannedCost(c, LISTED), c, { elapsedMs: 120_000 })).toBe(
      `plan: 22 benchmarks in 2 suites, about 0:45 a round: 3 to 15 rounds, about 2:15 to 8:00 (time budget 10:00, 2:00 of it used, which caps the rounds) ${SAID}`,
    );
  });

  it("names what is known only once it runs: a custom harness, Criterion without a listing", () => {
    const c = config({ schedule: "suite", suites: [micro, cli, harness] });
    const cost = plannedCost(c, undefined);
    expect(cost.unknown).toEqual(["micro (criterion)", "harness (custom)"]);
    expect(describeCost(cost, c, { elapsedMs: 0 })).toMatch(
      /^plan: 2 benchmarks in 3 suites, .*; not counted: micro \(criterion\) and harness \(custom\), whose benchmarks and times are known once they run /,
    );
  });
});

describe("PaceWatch: round 1's pace, once, when round 1 is long", () => {
  it("projects the round from the suite's pairs so far and the settings' guess for the rest", () => {
    const c = config();
    const watch = new PaceWatch(plannedCost(c, LISTED), c);
    const pairs = { done: 4, expected: 20 };
    // Under a minute into round 1: nothing yet.
    expect(
      watch.pace("micro", pairs, { suiteMs: 50_000, roundMs: 50_000, elapsedMs: 80_000 }),
    ).toBe(undefined);
    // 4 of 20 pairs in 1:00: 16 more at 15 s, then cli's 4 s and 1 s: 5:05 a round.
    expect(
      watch.pace("micro", pairs, { suiteMs: 60_000, roundMs: 60_000, elapsedMs: 90_000 }),
    ).toBe(
      "plan: 22 benchmarks in 2 suites, about 5:05 a round: 5 rounds, about 25:25 (at round 1's pace: micro 4 of 20 pairs in 1:00; the settings said about 0:45 a round)",
    );
    expect(
      watch.pace(
        "micro",
        { done: 5, expected: 20 },
        { suiteMs: 70_000, roundMs: 70_000, elapsedMs: 100_000 },
      ),
    ).toBe(undefined);
  });

  it("Progress says it after a pair of round 1 only", () => {
    let now = 0;
    const lines: string[] = [];
    const progress = new Progress((text) => lines.push(text), {
      now: () => now,
      date: () => new Date(0),
    });
    progress.watchPace((suite, pairs) => `${suite} ${pairs.done}/${pairs.expected}`);
    progress.startRound();
    now = 61_000;
    progress.pairDone(2, "micro", { done: 3, expected: 9 }, 61_000);
    expect(lines).toEqual([]);
    progress.pairDone(1, "micro", { done: 3, expected: 9 }, 61_000);
    expect(lines).toEqual(["benchgate [1:01] micro 3/9\n"]);
  });
});

describe("describeCost with a time budget the first rounds overrun", () => {
  it("says so instead of a range", () => {
    const c = config({ rounds: 15, sequential: { minRounds: 3, timeBudgetMs: 900_000 } });
    const cost = { ...plannedCost(c, LISTED), roundMs: 1_261_000 };
    expect(describeCost(cost, c, { elapsedMs: 73_000 })).toContain(
      "3 to 15 rounds, about 1:03:03 (time budget 15:00, 1:13 of it used: the 3 rounds every benchmark runs overrun it)",
    );
  });
});
