import { describe, expect, it } from "vitest";
import { PLANS } from "../../test/support/fake-runner.ts";
import {
  budgetStop,
  pairGroups,
  planRound,
  suiteGroups,
  type PlanOutlook,
} from "./round-budget.ts";

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

describe("planRound", () => {
  const groups = [
    { ids: ["slow"], ms: 9_000 },
    { ids: ["a", "b"], ms: 2_000 },
    { ids: ["c"], ms: 1_000 },
    { ids: ["d"], ms: 3_000 },
  ];
  // Without outlooks (a claim's benchmarks) every group is one round from settled.
  const none = (): undefined => undefined;
  const budget = (overheadMs: number, leftMs: number, roundsLeft = 5) => ({
    overheadMs,
    leftMs,
    roundsLeft,
  });

  it("the whole round when every open benchmark can have the rounds it needs", () => {
    expect(planRound(groups, none, budget(1_000, 16_000))).toEqual({
      ids: new Set(["slow", "a", "b", "c", "d"]),
      ms: 16_000,
      whole: true,
    });
  });

  it("else the groups that fit, cheapest to settle first, whole groups only", () => {
    // 500 overhead + 1 000 (c) + 2 000 (a, b) = 3 500; d would make 6 500.
    expect(planRound(groups, none, budget(500, 6_000))).toEqual({
      ids: new Set(["c", "a", "b"]),
      ms: 3_500,
      whole: false,
    });
  });

  it("undefined when not even the cheapest fits; a negative overhead counts as none", () => {
    expect(planRound(groups, none, budget(0, 999))).toBeUndefined();
    expect(planRound(groups, none, budget(-5_000, 1_000))?.ids).toEqual(new Set(["c"]));
    expect(planRound([], none, budget(0, 0))).toEqual({ ids: new Set(), ms: 0, whole: true });
  });

  it("gives the time left to what it can settle, first what could fail the gate", () => {
    // Each benchmark 1 s a round (near4 1.2 s, far 1.5 s), 3 more rounds settle every one that
    // can be settled but "far" (9 more: 13.5 s), 18 s left.
    const ids = [
      "fail1",
      "fail2",
      "near1",
      "near2",
      "near3",
      "near4",
      "far",
      "x1",
      "x2",
      "x3",
      "x4",
    ];
    const outlooks = new Map<string, PlanOutlook>([
      ["fail1", { rounds: 6, settleAt: 9, couldFail: true }],
      ["fail2", { rounds: 6, settleAt: 9, couldFail: true }],
      ["near1", { rounds: 6, settleAt: 9, couldFail: false }],
      ["near2", { rounds: 6, settleAt: 9, couldFail: false }],
      ["near3", { rounds: 6, settleAt: 9, couldFail: false }],
      ["near4", { rounds: 6, settleAt: 9, couldFail: false }],
      ["far", { rounds: 6, settleAt: 15, couldFail: true }],
      ...["x1", "x2", "x3", "x4"].map(
        (id) => [id, { rounds: 6, settleAt: undefined, couldFail: false }] as const,
      ),
    ]);
    const ms = new Map([
      ["near4", 1_200],
      ["far", 1_500],
    ]);
    const each = ids.map((id) => ({ ids: [id], ms: ms.get(id) ?? 1_000 }));
    const plan = planRound(each, (id) => outlooks.get(id), budget(0, 18_000, 9));
    // fail1, fail2 (3 s each to settle; far's 13.5 s do not fit beside them), near1–3 (3 s
    // each), near4 (3.6 s) does not fit in the 3 s left; from those, one round of far (it could
    // fail) and of x1, the cheapest of the rest.
    expect(plan?.ids).toEqual(new Set(["fail1", "fail2", "near1", "near2", "near3", "far", "x1"]));
    expect(plan?.whole).toBe(false);
  });

  it("a benchmark that cannot be settled gets a round only from what the plan leaves", () => {
    const outlooks = new Map<string, PlanOutlook>([
      ["settles", { rounds: 3, settleAt: 12, couldFail: true }],
      ["never", { rounds: 3, settleAt: undefined, couldFail: false }],
    ]);
    const two = [
      { ids: ["settles"], ms: 1_000 },
      { ids: ["never"], ms: 500 },
    ];
    // 9 more rounds of "settles" take 9 s: with 9.4 s left the 0.5 s of "never" do not fit.
    expect(planRound(two, (id) => outlooks.get(id), budget(0, 9_400, 12))?.ids).toEqual(
      new Set(["settles"]),
    );
    expect(planRound(two, (id) => outlooks.get(id), budget(0, 9_600, 12))?.ids).toEqual(
      new Set(["settles", "never"]),
    );
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
