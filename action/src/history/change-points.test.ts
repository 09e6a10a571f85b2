import { describe, expect, it } from "vitest";
import {
  detectChangePoints,
  detectChangePointsInSegments,
  seededIntervals,
} from "./change-points.ts";
import { gaussian, rng } from "../../test/support/synthetic.ts";

/** A series of per-commit medians: level(i) × lognormal noise, optionally bimodal like this VM. */
function series(
  n: number,
  seed: number,
  level: (i: number) => number,
  noise: { sd: number; jump?: number; jumpShare?: number } = { sd: 0.1 },
): number[] {
  const random = rng(seed);
  const normal = gaussian(random);
  return Array.from({ length: n }, (_, i) => {
    const jump = random() < (noise.jumpShare ?? 0) ? (noise.jump ?? 1) : 1;
    return level(i) * Math.exp(noise.sd * normal()) * jump;
  });
}

/** The process-to-process bimodality measured here: 30 % of runs read 40 % slower. */
const BIMODAL = { sd: 0.05, jump: 1.4, jumpShare: 0.3 };

describe("detectChangePoints", () => {
  it("finds a single step at its index, with the levels and the relative step", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const values = series(300, seed, (i) => (i < 150 ? 100 : 130));
      const found = detectChangePoints(values);
      expect(found, `seed ${seed}`).toHaveLength(1);
      const [cp] = found;
      expect(Math.abs((cp?.index ?? 0) - 150), `seed ${seed}`).toBeLessThanOrEqual(3);
      expect(cp?.before).toBeGreaterThan(95);
      expect(cp?.before).toBeLessThan(105);
      expect(cp?.after).toBeGreaterThan(124);
      expect(cp?.after).toBeLessThan(136);
      expect(cp?.step).toBeGreaterThan(0.24);
      expect(cp?.step).toBeLessThan(0.36);
      // Significant after the Bonferroni over the 152 seeded intervals of 300 points.
      expect(cp?.pValue).toBeLessThan(0.01 / 152);
    }
  });

  it("finds a step in this machine's bimodal noise and a speed-up as a negative step", () => {
    let located = 0;
    for (let seed = 1; seed <= 20; seed++) {
      const values = series(400, seed, (i) => (i < 250 ? 100 : 50), BIMODAL);
      const found = detectChangePoints(values);
      expect(found, `seed ${seed}`).toHaveLength(1);
      expect(found[0]?.step).toBeLessThan(-0.4);
      if (Math.abs((found[0]?.index ?? 0) - 250) <= 3) located++;
    }
    expect(located).toBe(20);
  });

  it("reports no change point on flat noisy series, over many seeds and noise shapes", () => {
    const shapes = [{ sd: 0.1 }, { sd: 0.4 }, BIMODAL, { sd: 0.02, jump: 3, jumpShare: 0.05 }];
    let flagged = 0;
    let tested = 0;
    for (const shape of shapes) {
      for (const n of [12, 40, 200]) {
        for (let seed = 1; seed <= 100; seed++) {
          tested++;
          if (detectChangePoints(series(n, seed * 31 + n, () => 100, shape)).length > 0) flagged++;
        }
      }
    }
    expect(tested).toBe(1200);
    // The bound is alpha = 1 % per series; the Bonferroni over overlapping intervals keeps the
    // real rate far below it (0 of 1,200 here).
    expect(flagged).toBe(0);
  });

  it("does not take one outlier, however large, for a change", () => {
    for (const factor of [10, 0.1, 1e6]) {
      for (let seed = 1; seed <= 20; seed++) {
        const values = series(200, seed, () => 100);
        values[100] = (values[100] as number) * factor;
        values[199] = (values[199] as number) * factor;
        expect(detectChangePoints(values), `×${factor} seed ${seed}`).toEqual([]);
      }
    }
  });

  it("finds two steps in the same direction and a regression that was fixed", () => {
    for (let seed = 1; seed <= 10; seed++) {
      const stairs = detectChangePoints(
        series(300, seed, (i) => (i < 100 ? 100 : i < 200 ? 150 : 225)),
      );
      expect(stairs.map((c) => Math.round(c.index / 10) * 10)).toEqual([100, 200]);
      expect(stairs.every((c) => c.step !== null && Math.abs(c.step - 0.5) < 0.1)).toBe(true);

      const fixed = detectChangePoints(series(300, seed, (i) => (i >= 120 && i < 160 ? 150 : 100)));
      expect(
        fixed.map((c) => c.index).every((index, k) => Math.abs(index - [120, 160][k]!) <= 3),
      ).toBe(true);
      expect(fixed).toHaveLength(2);
      expect(fixed[0]?.step).toBeGreaterThan(0.3);
      expect(fixed[1]?.step).toBeLessThan(-0.2);
    }
  });

  it("skips commits without a value and reports indexes into the input", () => {
    const dense = series(200, 7, (i) => (i < 100 ? 10 : 20));
    const sparse: (number | null)[] = [];
    dense.forEach((v, i) => {
      sparse.push(v);
      if (i % 3 === 0) sparse.push(null);
    });
    const [cp] = detectChangePoints(sparse);
    expect(sparse[cp?.index ?? -1]).not.toBeNull();
    const denseIndex = sparse.slice(0, cp?.index).filter((v) => v !== null).length;
    expect(Math.abs(denseIndex - 100)).toBeLessThanOrEqual(2);
  });

  it("is the same on the log scale: ranks do not change under a monotone transform", () => {
    const values = series(300, 3, (i) => (i < 80 ? 5 : i < 210 ? 7 : 6), BIMODAL);
    const onValues = detectChangePoints(values, { minStep: 0 });
    const onLogs = detectChangePoints(values.map(Math.log), { minStep: 0 });
    expect(onValues.length).toBeGreaterThan(0);
    expect(onLogs.map((c) => c.index)).toEqual(onValues.map((c) => c.index));
  });

  it("handles ties (integer nanoseconds from imported data) and constant series", () => {
    const random = rng(11);
    const quantized = Array.from({ length: 120 }, (_, i) =>
      Math.round((i < 60 ? 10 : 13) + random() * 2),
    );
    const [cp] = detectChangePoints(quantized);
    expect(Math.abs((cp?.index ?? 0) - 60)).toBeLessThanOrEqual(2);
    expect(detectChangePoints(Array.from({ length: 100 }, () => 42))).toEqual([]);
    expect(detectChangePoints([1, 2, 3, 100, 200, 300])).toEqual([]);
  });

  it("drops steps smaller than minStep and keeps them when asked", () => {
    const values = Array.from({ length: 100 }, (_, i) => (i < 50 ? 1000 : 1005) + (i % 7) * 0.01);
    expect(detectChangePoints(values)).toEqual([]);
    const [cp] = detectChangePoints(values, { minStep: 0.001 });
    expect(cp?.index).toBe(50);
    expect(cp?.step).toBeCloseTo(0.005, 3);
  });
});

describe("detectChangePointsInSegments (superseded baselines)", () => {
  it("never reports the method change at a cut as a change point", () => {
    for (let seed = 1; seed <= 20; seed++) {
      // The new method reads 3× the old one from commit 100 on.
      const values = series(200, seed, (i) => (i < 100 ? 100 : 300));
      expect(detectChangePoints(values), `seed ${seed}`).toHaveLength(1);
      expect(detectChangePointsInSegments(values, [100]), `seed ${seed}`).toEqual([]);
    }
  });

  it("finds a real step inside a segment, at its index in the whole series, with that segment's levels", () => {
    for (let seed = 1; seed <= 10; seed++) {
      // Old method 100; new method 300, then a regression to 390 at commit 160.
      const values = series(240, seed, (i) => (i < 100 ? 100 : i < 160 ? 300 : 390));
      const found = detectChangePointsInSegments(values, [100]);
      expect(found, `seed ${seed}`).toHaveLength(1);
      const [cp] = found;
      expect(Math.abs((cp?.index ?? 0) - 160), `seed ${seed}`).toBeLessThanOrEqual(3);
      // Levels from the new method's segment only: the old 100s never enter the median.
      expect(cp?.before).toBeGreaterThan(280);
      expect(cp?.after).toBeGreaterThan(360);
      expect(cp?.step).toBeGreaterThan(0.2);
      expect(cp?.step).toBeLessThan(0.4);
    }
  });

  it("analyses each segment alone: a level shared across a cut is not a step", () => {
    // A step at 80 with a cut at 120: the segment [0, 120) still has its step; [120, 200) is flat.
    const values = series(200, 4, (i) => (i < 80 ? 100 : 150));
    const found = detectChangePointsInSegments(values, [120]);
    expect(found).toHaveLength(1);
    expect(Math.abs((found[0]?.index ?? 0) - 80)).toBeLessThanOrEqual(3);
    // A segment too short to hold a change on each side reports none.
    expect(detectChangePointsInSegments(values, [75, 84])).toEqual([]);
    // Cuts outside the series or at its start change nothing.
    expect(detectChangePointsInSegments(values, [0, 200, 500])).toEqual(detectChangePoints(values));
  });
});

describe("seededIntervals", () => {
  it("covers every scale from the whole range down to the minimum length, inside [0, n)", () => {
    const intervals = seededIntervals(1000, 10);
    expect(intervals[0]).toEqual([0, 1000]);
    expect(intervals.every(([s, e]) => s >= 0 && e <= 1000 && e - s >= 10)).toBe(true);
    expect(Math.min(...intervals.map(([s, e]) => e - s))).toBeLessThan(15);
    // About n log n points in all: cheap enough for 200 series × 1,000 commits.
    const total = intervals.reduce((sum, [s, e]) => sum + e - s, 0);
    expect(total).toBeLessThan(1000 * 40);
    expect(new Set(intervals.map(([s, e]) => `${s}:${e}`)).size).toBe(intervals.length);
  });
});
