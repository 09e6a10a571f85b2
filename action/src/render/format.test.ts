import { describe, expect, it } from "vitest";
import {
  formatChange,
  formatCi,
  formatCount,
  formatFactor,
  formatNumber,
  formatPercent,
  formatTime,
  formatValue,
  tamePercents,
} from "./format.ts";

describe("formatFactor", () => {
  it.each([
    [8.1234, "8.12×"],
    [31.24, "31.2×"],
    [2, "2×"],
    [0.9534, "0.953×"],
    [12345, "12300×"],
    [123456, "1.23e+5×"],
    [0.0001234, "1.23e-4×"],
    [1e300, "1.00e+300×"],
    [null, "—"],
    [Number.POSITIVE_INFINITY, "—"],
  ])("%s → %s", (value, expected) => {
    expect(formatFactor(value)).toBe(expected);
  });
});

describe("formatTime", () => {
  it.each([
    [0, "0 ns"],
    [0.5, "0.500 ns"],
    [456, "456 ns"],
    [999.4, "999 ns"],
    [999.7, "1.00 µs"],
    [1234, "1.23 µs"],
    [2_100_000, "2.10 ms"],
    [1_500_000_000, "1.50 s"],
    [999_999_999_999, "1,000 s"],
    [12_345_000_000_000, "12,345 s"],
    [-1234, "−1.23 µs"],
    [Number.NaN, "—"],
    [Number.POSITIVE_INFINITY, "—"],
    [null, "—"],
  ])("%s ns → %s", (ns, expected) => {
    expect(formatTime(ns)).toBe(expected);
  });
});

describe("formatChange and formatCi", () => {
  it.each([
    [0.034, "+3.4 %"],
    [-0.12, "−12.0 %"],
    [0.0004, "0.0 %"],
    [-0.0004, "0.0 %"],
    [-1, "−100.0 %"],
    [12.3456, "×13"],
    [9.9994, "+999.9 %"],
    [9.9996, "×11"],
    [22218.73, "×22,000"],
    [null, "—"],
  ])("%s → %s", (relative, expected) => {
    expect(formatChange(relative)).toBe(expected);
  });

  it("formats intervals and magnitudes", () => {
    expect(formatCi([-0.012, 0.056])).toBe("[−1.2 %, +5.6 %]");
    expect(formatCi(null)).toBe("—");
    expect(formatCi([0.01, Number.NaN])).toBe("—");
    expect(formatPercent(0.0123)).toBe("1.2 %");
    expect(formatPercent(-0.5)).toBe("−50.0 %");
  });
});

describe("tamePercents", () => {
  it("turns percentages of 1,000 % and more into ratios and leaves the rest", () => {
    // From the demo's report (an underpowered load suite's smell).
    const smell =
      "14 of 18 benchmarks could miss a regression of +6.0 % (twice the +3.0 % fail threshold) with 12 rounds: median MDE +234 %, worst +575577 %";
    expect(tamePercents(smell)).toBe(
      "14 of 18 benchmarks could miss a regression of +6.0 % (twice the +3.0 % fail threshold) with 12 rounds: median MDE +234 %, worst ×5,800",
    );
    expect(tamePercents("CI +999.9 % to +2,221,873.0 %; −12.0 %")).toBe(
      "CI +999.9 % to ×22,000; −12.0 %",
    );
    expect(tamePercents("no percentage here: 12345 rounds")).toBe(
      "no percentage here: 12345 rounds",
    );
  });
});

describe("formatNumber, formatValue, formatCount", () => {
  it.each([
    [12, "12"],
    [0.5, "0.500"],
    [3.14159, "3.14"],
    [1234.5, "1,235"],
    [1e-9, "1.00e-9"],
    [2e16, "2.00e+16"],
    [-7.5, "−7.50"],
  ])("formatNumber(%s) → %s", (n, expected) => {
    expect(formatNumber(n)).toBe(expected);
  });

  it("uses time for ns and the given unit otherwise", () => {
    expect(formatValue(1234, "ns")).toBe("1.23 µs");
    expect(formatValue(0.05, "fraction")).toBe("+5.0 %");
    expect(formatValue(5.25e6, "B/s")).toBe("5,250,000 B/s");
    expect(formatValue(3.5, "MiB/s")).toBe("3.50 MiB/s");
    expect(formatValue(undefined, "B")).toBe("—");
    expect(formatValue(3, undefined)).toBe("3");
    expect(formatCount(20_000)).toBe("20,000");
  });
});
