import { describe, expect, it } from "vitest";
import { fence, isolated, outlierFence, SET_ASIDE_ALPHA } from "./outlier-fence.ts";
import { overstatedBelow, spreadRatio, varianceYardstick } from "./spread-inflation.ts";
import { rng } from "../../test/support/synthetic.ts";

/** Standard normal draws (Box–Muller) from a seeded uniform source. */
function normals(seed: number, n: number): number[] {
  const u = rng(seed);
  return Array.from({ length: n }, () => {
    const a = Math.max(u(), 1e-12);
    return Math.sqrt(-2 * Math.log(a)) * Math.cos(2 * Math.PI * u());
  });
}

describe("the fence that sets history records aside", () => {
  it("is Student's t at Bonferroni's level on the MAD's effective degrees of freedom", () => {
    expect(outlierFence(30)).toBeCloseTo(5.17, 1);
    // More records: the MAD is surer and the fence closes in, but never below the normal bound.
    expect(outlierFence(200)).toBeLessThan(outlierFence(30));
    expect(outlierFence(200)).toBeGreaterThan(3.9);
  });

  it("sets aside about α of normal series' records or fewer, and a lone spike always", () => {
    let touched = 0;
    const series = 2000;
    for (let seed = 1; seed <= series; seed++) {
      const xs = normals(seed, 30).map((z) => 0.02 * z);
      if (fence(xs).outside.size > 0) touched++;
      const spiked = [...xs];
      spiked[11] = Math.log(2);
      expect(fence(spiked).outside.has(11)).toBe(true);
    }
    // The family-wise rate is at most α (1 %); allow the binomial spread of 2,000 series.
    expect(touched / series).toBeLessThan(SET_ASIDE_ALPHA + 0.01);
  });

  it("sets nothing aside where most records repeat one value (exact counts) or there are too few", () => {
    expect(fence([5, 5, 5, 5, 6, 5, 5]).outside.size).toBe(0);
    expect(fence([1, 100]).outside.size).toBe(0);
  });
});

describe("values outside the fence: isolated anomalies, or the runner's own tails", () => {
  it("counts as isolated only what normal tails would leave outside in that many series", () => {
    // Under normal tails at most α = 1 % of series have a value outside: Binomial(m, α).
    expect(isolated(0, 12)).toBe(true);
    expect(isolated(1, 12)).toBe(true);
    expect(isolated(2, 12)).toBe(false);
    expect(isolated(3, 70)).toBe(true);
    expect(isolated(4, 70)).toBe(false);
    // A runner whose runs now and then land far off shows it in most series: its own tails.
    expect(isolated(60, 70)).toBe(false);
  });
});

describe("a history far wider than this job", () => {
  it("is flagged at most α of the time when the model's variance is right", () => {
    const m = 24;
    const bound = overstatedBelow(m);
    let flagged = 0;
    const trials = 2000;
    for (let seed = 1; seed <= trials; seed++) {
      const d = normals(seed + 10_000, m).map((z) => 0.03 * z);
      const lambda = spreadRatio(
        d.map((x) => ({ d: x, v: 0.03 * 0.03, df: 1e6 })),
        10,
        varianceYardstick,
      ) as number;
      if (lambda < bound) flagged++;
    }
    expect(flagged / trials).toBeLessThan(0.02);
    // A history four times as wide as the job (its SD) is flagged.
    const wide = normals(7, m).map((z) => ({ d: 0.01 * z, v: 0.04 * 0.04, df: 1e6 }));
    expect(spreadRatio(wide, 10, varianceYardstick) as number).toBeLessThan(bound);
  });
});
