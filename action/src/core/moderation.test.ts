import { describe, expect, it } from "vitest";
import { fitVariancePrior, moderatedVariance } from "./moderation.ts";
import { gaussian, rng } from "../../test/support/synthetic.ts";

/** Draws s² = s0² · χ²_d / d, with σ² itself drawn from the scaled inverse-χ² prior (d0, s0²). */
function drawVariances(n: number, d: number, s0: number, d0: number, seed: number): number[] {
  const normal = gaussian(rng(seed));
  const chi2 = (k: number): number => {
    let sum = 0;
    for (let i = 0; i < k; i++) sum += normal() ** 2;
    return sum;
  };
  return Array.from({ length: n }, () => {
    const sigma2 = d0 === Infinity ? s0 : (d0 * s0) / chi2(d0);
    return (sigma2 * chi2(d)) / d;
  });
}

describe("fitVariancePrior (limma fitFDist)", () => {
  it("recovers a finite prior from simulated variances", () => {
    const s2 = drawVariances(4000, 4, 0.04, 6, 1);
    const prior = fitVariancePrior(
      s2,
      s2.map(() => 4),
    );
    expect(prior).toBeDefined();
    expect(prior!.df).toBeGreaterThan(4);
    expect(prior!.df).toBeLessThan(9);
    expect(prior!.variance).toBeGreaterThan(0.034);
    expect(prior!.variance).toBeLessThan(0.046);
  });

  it("says d0 = ∞ when every benchmark has the same true variance", () => {
    const s2 = drawVariances(4000, 4, 0.01, Infinity, 2);
    const prior = fitVariancePrior(
      s2,
      s2.map(() => 4),
    );
    // With no real heterogeneity the estimated d0 is infinite or very large.
    expect(prior!.df).toBeGreaterThan(100);
    expect(prior!.variance).toBeCloseTo(0.01, 3);
  });

  it("is unit-free: scaling every variance scales the prior variance only", () => {
    const s2 = drawVariances(200, 2, 0.04, 5, 3);
    const a = fitVariancePrior(
      s2,
      s2.map(() => 2),
    )!;
    const b = fitVariancePrior(
      s2.map((x) => x * 1e6),
      s2.map(() => 2),
    )!;
    expect(b.df).toBeCloseTo(a.df, 6);
    expect(b.variance / a.variance).toBeCloseTo(1e6, 0);
  });

  it("needs two usable variances, and tolerates zeros", () => {
    expect(fitVariancePrior([0.1], [2])).toBeUndefined();
    expect(fitVariancePrior([Number.NaN, 0.1], [2, 2])).toBeUndefined();
    expect(fitVariancePrior([0, 0, 0], [2, 2, 2])).toEqual({ variance: 0, df: Infinity });
    const prior = fitVariancePrior([0, 0.01, 0.02, 0.015], [2, 2, 2, 2]);
    expect(prior!.variance).toBeGreaterThan(0);
  });

  it("moderated variance lies between own and prior", () => {
    const prior = { variance: 0.04, df: 4 };
    const v = moderatedVariance(prior, 0.01, 2);
    expect(v).toBeGreaterThan(0.01);
    expect(v).toBeLessThan(0.04);
    expect(moderatedVariance({ variance: 0.04, df: Infinity }, 0.5, 2)).toBe(0.04);
    expect(moderatedVariance(prior, Number.NaN, 0)).toBe(0.04);
  });
});
