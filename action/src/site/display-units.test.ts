import { describe, expect, it } from "vitest";
import { chooseDisplayUnit, formatInUnit, formatNumberIn, formatTick } from "./display-units.ts";

/** The unit chosen for a series of these values, and how each value reads in it. */
function shown(unit: string, values: readonly (number | null)[]): [string, string[]] {
  const display = chooseDisplayUnit(unit, values);
  return [display.label, values.map((v) => formatInUnit(v, display))];
}

describe("chooseDisplayUnit and formatInUnit", () => {
  it("draws a time series in the largest of ns, µs, ms, s its typical value reaches", () => {
    expect(shown("ns", [456, 512, 498])).toEqual(["ns", ["456 ns", "512 ns", "498 ns"]]);
    expect(shown("ns", [15_630, 16_100])).toEqual(["µs", ["15.6 µs", "16.1 µs"]]);
    expect(shown("ns", [15_630_000, 22_500_000, null])).toEqual([
      "ms",
      ["15.6 ms", "22.5 ms", "—"],
    ]);
    expect(shown("ns", [1.5e9, 2.25e9])).toEqual(["s", ["1.50 s", "2.25 s"]]);
    // Past seconds it stays in seconds, with grouped digits.
    expect(shown("ns", [3600e9])).toEqual(["s", ["3,600 s"]]);
  });

  it("rounds before it chooses, as the comment does: 999.7 ns is 1.00 µs", () => {
    expect(shown("ns", [999.7])).toEqual(["µs", ["1.00 µs"]]);
    expect(shown("ns", [999.4])).toEqual(["ns", ["999 ns"]]);
  });

  it("chooses from the typical value, so one outlier does not rescale the chart", () => {
    const [label, texts] = shown("ns", [5e6, 5.1e6, 4.9e6, 2e9]);
    expect(label).toBe("ms");
    expect(texts).toEqual(["5.00 ms", "5.10 ms", "4.90 ms", "2,000 ms"]);
  });

  it("recognizes imported time units and converts them", () => {
    expect(shown("ms", [0.0153, 0.0161])).toEqual(["µs", ["15.3 µs", "16.1 µs"]]);
    expect(shown("us/iter", [2500, 2600])).toEqual(["ms", ["2.50 ms", "2.60 ms"]]);
    expect(shown("ns/iter", [42])).toEqual(["ns", ["42.0 ns"]]);
    const display = chooseDisplayUnit("ms", [15_300]);
    expect(display.label).toBe("s");
    expect(display.scale).toBe(1000);
  });

  it("steps sizes and byte rates by 1,024", () => {
    expect(shown("B", [512, 1000])).toEqual(["B", ["512 B", "1,000 B"]]);
    expect(shown("B", [3 * 1024 * 1024, 3.5 * 1024 * 1024])).toEqual([
      "MiB",
      ["3.00 MiB", "3.50 MiB"],
    ]);
    expect(shown("B/s", [1.5 * 2 ** 30])).toEqual(["GiB/s", ["1.50 GiB/s"]]);
    // An imported "MiB/s" is stored in MiB/s: 900 MiB/s stays MiB, 2,048 MiB/s is 2 GiB/s.
    expect(shown("MiB/s", [900])).toEqual(["MiB/s", ["900 MiB/s"]]);
    expect(shown("MiB/s", [2048])).toEqual(["GiB/s", ["2.00 GiB/s"]]);
    expect(shown("B/op", [4096])).toEqual(["KiB/op", ["4.00 KiB/op"]]);
    expect(shown("bit/s", [2.5e6])).toEqual(["Mbit/s", ["2.50 Mbit/s"]]);
  });

  it("gives rates and counts SI prefixes before the unit", () => {
    expect(shown("req/s", [12_300, 12_900])).toEqual(["k req/s", ["12.3k req/s", "12.9k req/s"]]);
    expect(shown("ops/s", [950])).toEqual(["ops/s", ["950 ops/s"]]);
    expect(shown("instructions", [15_630_000, 15_640_000])).toEqual([
      "M instructions",
      ["15.6M instructions", "15.6M instructions"],
    ]);
    expect(shown("cycles", [2.2e9])).toEqual(["G cycles", ["2.20G cycles"]]);
    // The valgrind counts the ingest's unit rule does not list.
    expect(shown("hits", [4.2e6])).toEqual(["M hits", ["4.20M hits"]]);
    expect(shown("blocks", [12])).toEqual(["blocks", ["12 blocks"]]);
  });

  it("writes counts below 1,000 as counted: 2 hits, not 2.00 hits", () => {
    expect(shown("hits", [2, 2.5, 950])).toEqual(["hits", ["2 hits", "2.5 hits", "950 hits"]]);
    expect(shown("instructions", [0, 1, 999])[1]).toEqual([
      "0 instructions",
      "1 instructions",
      "999 instructions",
    ]);
    expect(chooseDisplayUnit("hits", [2]).whole).toBe(true);
    // With a prefix the count is scaled: three significant digits, as everywhere else.
    expect(chooseDisplayUnit("hits", [4.2e6]).whole).toBe(false);
    expect(chooseDisplayUnit("ns", [2]).whole).toBe(false);
  });

  it("writes a unit outside every family as given, after the number the comment shows", () => {
    expect(shown("widgets", [15_630_000])).toEqual(["widgets", ["15,630,000 widgets"]]);
    expect(shown("%", [12.5])).toEqual(["%", ["12.5 %"]]);
    // A rate word has no room for a prefix; the unit is never altered.
    expect(shown("qps", [1234.5])).toEqual(["qps", ["1,235 qps"]]);
    expect(shown(`<b>x</b>`, [3])).toEqual([`<b>x</b>`, [`3 <b>x</b>`]]);
    expect(shown("", [3])).toEqual(["", ["3"]]);
  });

  it("handles zero, negative and missing values without choosing from them", () => {
    expect(shown("ns", [0, 0])).toEqual(["ns", ["0 ns", "0 ns"]]);
    expect(shown("ns", [null, null])).toEqual(["ns", ["—", "—"]]);
    expect(shown("ns", [-2.5e6, 2.5e6])).toEqual(["ms", ["\u22122.50 ms", "2.50 ms"]]);
    const display = chooseDisplayUnit("ns", [1e6]);
    expect(formatInUnit(Number.NaN, display)).toBe("—");
    expect(formatNumberIn(1.234e6, display)).toBe("1.23");
  });
});

describe("formatTick", () => {
  const ms = chooseDisplayUnit("ns", [2e7]);
  const tick = (value: number, increment: number): string => formatTick(value, increment, ms);

  it("writes as many decimals as the increment has, and groups digits", () => {
    expect([20, 22.5, 25].map((v) => tick(v, 2.5))).toEqual(["20.0", "22.5", "25.0"]);
    expect([0.1, 0.2, 0.30000000000000004].map((v) => tick(v, 0.1))).toEqual(["0.1", "0.2", "0.3"]);
    expect([1.25, 1.5].map((v) => tick(v, 0.25))).toEqual(["1.25", "1.50"]);
    expect(tick(12_000, 2000)).toBe("12,000");
    expect(tick(0.00002, 0.00001)).toBe("0.00002");
    expect(tick(2e-7, 1e-7)).toBe("0.0000002");
  });

  it("uses the minus sign for negative ticks and none for zero", () => {
    expect(tick(-5, 5)).toBe("\u22125");
    expect(tick(-0, 5)).toBe("0");
    expect(tick(Number.NaN, 1)).toBe("");
  });

  it("keeps short ticks for a unit outside every family, whose numbers are not scaled", () => {
    const widgets = chooseDisplayUnit("widgets", [2e7]);
    expect(formatTick(22_500_000, 2_500_000, widgets)).toBe("22.5M");
    expect(formatTick(909_200, 100, widgets)).toBe("909.2K");
  });
});
