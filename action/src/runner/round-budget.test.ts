import { describe, expect, it } from "vitest";
import { PLANS } from "../../test/support/fake-runner.ts";
import { budgetStop, fitRound, pairGroups, suiteGroups } from "./round-budget.ts";

const { micro: criterion, cli: hyperfine, harness: custom } = PLANS;
const OPEN = new Map([
  ["micro", ["a", "b"]],
  ["cli", ["help"]],
  ["harness", ["h/one"]],
]);
const openOf = (suite: string): readonly string[] => OPEN.get(suite) ?? [];
const LATEST = new Map([
  ["micro", { ms: 20_000, benchmarks: 4 }],
  ["cli", { ms: 6_000, benchmarks: 2 }],
  ["harness", { ms: 10_000, benchmarks: 5 }],
]);

describe("suiteGroups (schedule: suite)", () => {
  it("each open benchmark at its suite's latest time per benchmark; a whole suite at its whole run", () => {
    const groups = suiteGroups([criterion, hyperfine, custom], openOf, [], {
      latest: LATEST,
      idMs: new Map(),
    });
    expect(groups).toEqual([
      { ids: ["a"], ms: 5_000 },
      { ids: ["b"], ms: 5_000 },
      { ids: ["help"], ms: 3_000 },
      { ids: ["h/one"], ms: 10_000 },
    ]);
  });

  it("a Criterion suite that runs with its own filter costs its whole run; no past run costs 0", () => {
    const past = { latest: LATEST, idMs: new Map<string, number>() };
    expect(suiteGroups([criterion], openOf, ["micro"], past)).toEqual([
      { ids: ["a", "b"], ms: 20_000 },
    ]);
    expect(suiteGroups([criterion], openOf, [], { latest: new Map(), idMs: new Map() })).toEqual([
      { ids: ["a"], ms: 0 },
      { ids: ["b"], ms: 0 },
    ]);
  });
});

describe("pairGroups (schedule: pairs)", () => {
  it("a unit at its benchmarks' latest pair of processes, a whole suite at its latest run", () => {
    const past = { latest: LATEST, idMs: new Map([["a", 1_500]]) };
    const groups = pairGroups(
      [
        { plan: criterion, ids: ["a"] },
        // Never measured alone: its suite's time per benchmark (20 s / 4).
        { plan: criterion, ids: ["b"] },
        { plan: custom },
      ],
      openOf,
      past,
    );
    expect(groups).toEqual([
      { ids: ["a"], ms: 1_500 },
      { ids: ["b"], ms: 5_000 },
      { ids: ["h/one"], ms: 10_000 },
    ]);
  });
});

describe("fitRound", () => {
  const groups = [
    { ids: ["slow"], ms: 9_000 },
    { ids: ["a", "b"], ms: 2_000 },
    { ids: ["c"], ms: 1_000 },
    { ids: ["d"], ms: 3_000 },
  ];

  it("the whole round when it fits, overhead included", () => {
    expect(fitRound(groups, 1_000, 16_000)).toEqual({
      ids: new Set(["slow", "a", "b", "c", "d"]),
      ms: 16_000,
      whole: true,
    });
  });

  it("else the cheapest groups that fit, whole groups only", () => {
    // 500 overhead + 1 000 (c) + 2 000 (a, b) = 3 500; d would make 6 500.
    expect(fitRound(groups, 500, 6_000)).toEqual({
      ids: new Set(["c", "a", "b"]),
      ms: 3_500,
      whole: false,
    });
  });

  it("undefined when not even the cheapest fits; a negative overhead counts as none", () => {
    expect(fitRound(groups, 0, 999)).toBeUndefined();
    expect(fitRound(groups, -5_000, 1_000)?.ids).toEqual(new Set(["c"]));
    expect(fitRound([], 0, 0)).toEqual({ ids: new Set(), ms: 0, whole: true });
  });
});

describe("budgetStop", () => {
  it("says what the next round would take and what is left of the budget", () => {
    expect(budgetStop(60_000, 45_000, 20_000)).toBe(
      "time budget: the next round would take ~20 s, 15 s of the 60 s budget left",
    );
    expect(budgetStop(60_000, 70_000, 1_000)).toBe(
      "time budget: the next round would take ~1 s, 0 s of the 60 s budget left",
    );
  });
});
