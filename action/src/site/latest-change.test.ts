import { describe, expect, it } from "vitest";
import { changedCardOrder, latestStep, type StepInput } from "./latest-change.ts";

function input(fields: Partial<StepInput>): StepInput {
  return {
    start: 0,
    median: [100, 100, 300],
    low: [99, 99, 290],
    high: [101, 101, 310],
    breaks: [],
    direction: "smaller_is_better",
    ...fields,
  };
}

describe("latestStep", () => {
  it("reports a step whose intervals do not overlap, against the previous measured commit", () => {
    expect(latestStep(input({}), 2)).toEqual({
      index: 2,
      previous: 1,
      before: 100,
      after: 300,
      step: 2,
      worse: true,
    });
    const gap = latestStep(input({ median: [100, null, 300], low: [99, null, 290] }), 2);
    expect(gap?.previous).toBe(0);
    expect(latestStep(input({ direction: "bigger_is_better" }), 2)?.worse).toBe(false);
  });

  it("steps from the level of the recent commits, and not from before a new baseline", () => {
    const level = input({
      median: [500, 100, 104, 96, 300],
      low: [499, 99, 103, 95, 290],
      high: [501, 101, 105, 97, 310],
      breaks: [1],
    });
    expect(latestStep(level, 4)).toMatchObject({ previous: 3, before: 100, after: 300, step: 2 });
  });

  it("flags nothing within the noise, below 1 %, without intervals, across a new baseline", () => {
    expect(latestStep(input({ low: [99, 99, 100.5] }), 2)).toBeNull();
    const counts = {
      median: [1000, 1000, 1005],
      low: [1000, 1000, 1005],
      high: [1000, 1000, 1005],
    };
    expect(latestStep(input(counts), 2)).toBeNull();
    expect(latestStep(input({ low: null, high: null }), 2)).toBeNull();
    expect(latestStep(input({ breaks: [2] }), 2)).toBeNull();
    // Within the range the recent medians already wander over, whatever the intervals say.
    const wandering = input({
      median: [100, 130, 100, 125],
      low: [99, 129, 99, 124],
      high: [101, 131, 101, 126],
    });
    expect(latestStep(wandering, 3)).toBeNull();
    // Not measured at the latest commit, or never before it.
    expect(latestStep(input({ median: [100, 100, null] }), 2)).toBeNull();
    expect(latestStep(input({ start: 2, median: [300] }), 2)).toBeNull();
  });
});

describe("changedCardOrder", () => {
  const step = (before: number, after: number, worse: boolean) => ({
    index: 1,
    previous: 0,
    before,
    after,
    step: after / before - 1,
    worse,
  });
  it("puts regressions first, the largest first, then improvements, then moved counts", () => {
    const order = changedCardOrder([
      { lead: 0, own: null, secondary: [] },
      { lead: 1, own: step(100, 50, false), secondary: [] },
      { lead: 2, own: step(100, 110, true), secondary: [] },
      { lead: 3, own: null, secondary: [step(10, 20, true)] },
      { lead: 4, own: step(100, 300, true), secondary: [] },
      { lead: 5, own: null, secondary: [step(10, 5, false)] },
    ]);
    expect(order).toEqual([4, 2, 1, 3, 5]);
  });
});
