import { describe, expect, it } from "vitest";
import { medianOrderInterval } from "./median-interval.ts";

/** P(Bin(k, ½) ≤ m) by exact integer counting, independent of the log-space code. */
function exactCdf(k: number, m: number): number {
  let c = 1n;
  let sum = 0n;
  for (let i = 0; i <= m; i++) {
    sum += c;
    c = (c * BigInt(k - i)) / BigInt(i + 1);
  }
  return Number(sum) / 2 ** k;
}

/**
 * The oracle the interval is checked against, one rank at a time: the coverage of
 * [x(j), x(k+1−j)] for k values: 1 − 2·P(Bin(k, ½) ≤ j − 1). Computed in log
 * space so that k up to the schema's 10,000 rounds does not underflow.
 */
function orderStatisticCoverage(k: number, j: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(j) || k < 1 || j < 1 || 2 * j > k + 1)
    throw new RangeError(`no order-statistic interval of rank ${j} for ${k} values`);
  return Math.max(0, 1 - 2 * binomialHalfCdf(k, j - 1));
}

/** P(Bin(k, ½) ≤ m). */
function binomialHalfCdf(k: number, m: number): number {
  let logP = -k * Math.LN2;
  let sum = Math.exp(logP);
  for (let i = 1; i <= m; i++) {
    logP += Math.log((k - i + 1) / i);
    sum += Math.exp(logP);
  }
  return Math.min(1, sum);
}

describe("orderStatisticCoverage", () => {
  it("matches the exact binomial sums the documentation quotes", () => {
    expect(orderStatisticCoverage(3, 1)).toBeCloseTo(0.75, 12);
    expect(orderStatisticCoverage(4, 1)).toBeCloseTo(0.875, 12);
    expect(orderStatisticCoverage(5, 1)).toBeCloseTo(0.9375, 12);
    expect(orderStatisticCoverage(5, 2)).toBeCloseTo(0.625, 12);
    expect(orderStatisticCoverage(9, 2)).toBeCloseTo(1 - 20 / 512, 12);
    for (const k of [6, 11, 20, 50])
      for (let j = 1; 2 * j <= k + 1; j++)
        expect(orderStatisticCoverage(k, j)).toBeCloseTo(1 - 2 * exactCdf(k, j - 1), 12);
  });

  it("stays finite for the schema's largest round count", () => {
    const c = orderStatisticCoverage(10_000, 4_900);
    expect(c).toBeGreaterThan(0.9);
    expect(c).toBeLessThan(1);
  });

  it("refuses ranks that do not make an interval", () => {
    expect(() => orderStatisticCoverage(5, 4)).toThrow(RangeError);
    expect(() => orderStatisticCoverage(5, 0)).toThrow(RangeError);
  });
});

describe("medianOrderInterval", () => {
  it("gives no interval below three values", () => {
    expect(medianOrderInterval([])).toBeUndefined();
    expect(medianOrderInterval([1])).toBeUndefined();
    expect(medianOrderInterval([1, 2])).toBeUndefined();
  });

  it("uses [min, max] with its actual coverage when no interval reaches 95 %", () => {
    expect(medianOrderInterval([5, 1, 3])).toEqual({
      lower: 1,
      upper: 5,
      rank: 1,
      coverage: 0.75,
    });
    const five = medianOrderInterval([10, 14, 11, 13, 12]);
    expect(five).toMatchObject({ lower: 10, upper: 14, rank: 1 });
    expect(five?.coverage).toBeCloseTo(0.9375, 12);
  });

  it("takes the narrowest interval that still covers 95 %", () => {
    const nine = medianOrderInterval([9, 1, 8, 2, 7, 3, 6, 4, 5]);
    expect(nine).toMatchObject({ lower: 2, upper: 8, rank: 2 });
    expect(nine?.coverage).toBeGreaterThanOrEqual(0.95);
    expect(orderStatisticCoverage(9, 3)).toBeLessThan(0.95);
    // The table in docs/history.md: 20 rounds → [x(6), x(15)], 95.9 %.
    const twenty = medianOrderInterval(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(twenty).toMatchObject({ lower: 6, upper: 15, rank: 6 });
    expect(twenty?.coverage).toBeCloseTo(0.9586, 4);
    const values = Array.from({ length: 100 }, (_, i) => i);
    const wide = medianOrderInterval(values);
    expect(wide?.coverage).toBeGreaterThanOrEqual(0.95);
    expect(orderStatisticCoverage(100, (wide?.rank ?? 0) + 1)).toBeLessThan(0.95);
    expect(wide?.lower).toBe((wide?.rank ?? 0) - 1);
    expect(wide?.upper).toBe(100 - (wide?.rank ?? 0));
  });

  it("brackets the sample median and does not reorder the caller's array", () => {
    const values = [3.2, 1.1, 2.7, 9.9, 0.4, 5.5, 4.4];
    const copy = [...values];
    const iv = medianOrderInterval(values);
    expect(values).toEqual(copy);
    expect(iv?.lower).toBeLessThanOrEqual(3.2);
    expect(iv?.upper).toBeGreaterThanOrEqual(3.2);
  });
});
