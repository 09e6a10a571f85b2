import { describe, expect, it } from "vitest";
import { PLANS } from "../../test/support/fake-runner.ts";
import type { RunConfig } from "../config/run-config.ts";
import { describeCost, plannedCost } from "./cost-estimate.ts";

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
    expect(cost).toEqual({ benchmarks: 22, suites: 2, unknown: [], roundMs: 45_000 });
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
