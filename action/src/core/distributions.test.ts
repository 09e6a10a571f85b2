import { describe, expect, it } from "vitest";
import { digamma, inverseTrigamma, tCdf, tQuantile, trigamma } from "./distributions.ts";

describe("distributions (known values)", () => {
  it.each([
    [0.975, 4, 2.776445105],
    [0.975, 10, 2.228138852],
    [0.95, 2, 2.91998558],
    [0.975, Infinity, 1.959963985],
    // one-sided critical values at 0.05/300 (Bonferroni over 300 benchmarks), as t tables round them
    [1 - 0.05 / 300, 4, 11.4],
    [1 - 0.05 / 300, 40, 3.9],
    [1 - 0.05 / 300, Infinity, 3.6],
  ])("t quantile p=%f df=%f is %f", (p, df, expected) => {
    const digits = expected.toString().split(".")[1]?.length ?? 0;
    expect(tQuantile(p, df)).toBeCloseTo(expected, Math.min(digits, 6) - 1);
  });

  it("t CDF matches known values and its quantile", () => {
    expect(tCdf(2, 10)).toBeCloseTo(0.963305982, 8);
    expect(tCdf(0, 3)).toBe(0.5);
    expect(tCdf(Infinity, 3)).toBe(1);
    expect(tCdf(-Infinity, 3)).toBe(0);
    for (const df of [1, 2.5, 7, 30, 1e7]) expect(tCdf(tQuantile(0.9, df), df)).toBeCloseTo(0.9, 9);
  });

  it("digamma and trigamma known values", () => {
    expect(digamma(1)).toBeCloseTo(-0.5772156649, 9);
    expect(trigamma(1)).toBeCloseTo(Math.PI ** 2 / 6, 9);
    expect(trigamma(0.5)).toBeCloseTo(Math.PI ** 2 / 2, 9);
  });

  it("inverseTrigamma inverts trigamma across scales", () => {
    for (const y of [1e-4, 0.01, 0.5, 1, 3.7, 42, 1e4, 1e7]) {
      expect(inverseTrigamma(trigamma(y)) / y).toBeCloseTo(1, 8);
    }
    expect(() => inverseTrigamma(0)).toThrow(RangeError);
  });
});
