import { describe, expect, it } from "vitest";
import { fitTails, tDifferenceQuantile, tDifferenceTail } from "./heavy-tails.ts";
import { tCdf } from "./distributions.ts";
import { gaussian, rng } from "../../test/support/synthetic.ts";

describe("the difference of two runs' t-distributed noise", () => {
  it("is exact where the answer is known: normal (ν = ∞) and Cauchy (ν = 1)", () => {
    for (const x of [0, 0.5, 2, 6]) {
      expect(tDifferenceTail(x, Infinity)).toBeCloseTo(1 - tCdf(x / Math.SQRT2, Infinity), 12);
      // The difference of two standard Cauchy variables is Cauchy with scale 2.
      expect(tDifferenceTail(x, 1)).toBeCloseTo(0.5 - Math.atan(x / 2) / Math.PI, 4);
    }
    expect(tDifferenceTail(-2, 3)).toBeCloseTo(1 - tDifferenceTail(2, 3), 10);
  });

  it("has a heavier tail than the normal model with the same scale", () => {
    expect(tDifferenceTail(10, 2)).toBeGreaterThan(100 * tDifferenceTail(10, Infinity));
  });
});

describe("fitting the tails to a suite's records", () => {
  const normal = gaussian(rng(3));
  it("says normal for normal records and heavy for records with far-off runs", () => {
    const quiet = Array.from({ length: 40 }, () =>
      Array.from({ length: 28 }, () => 0.02 * normal()),
    );
    expect(fitTails(quiet).nu).toBeGreaterThanOrEqual(15);
    // One run in ten lands +30 % off.
    const random = rng(4);
    const spiky = quiet.map((xs) => xs.map((x) => (random() < 0.1 ? x + 0.3 : x)));
    expect(fitTails(spiky).nu).toBeLessThanOrEqual(3);
    const fit = fitTails(spiky);
    expect(fit.fits).toHaveLength(40);
    // The scale follows the core of the records, not the far-off runs.
    for (const f of fit.fits) expect(f.scale).toBeLessThan(0.05);
  });
});

describe("the quantile of the difference", () => {
  it("inverts the tail", () => {
    for (const nu of [1, 2.5, 7, Infinity])
      for (const p of [1e-4, 0.01, 0.2, 0.8])
        expect(tDifferenceTail(tDifferenceQuantile(p, nu), nu)).toBeCloseTo(p, 6);
  });
});
