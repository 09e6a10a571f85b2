import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCachegrind } from "../ingest/cachegrind/cachegrind.ts";
import { TOOLS } from "../ingest/gungraun/gungraun-metrics.ts";
import { BUDGET_STATISTICS } from "./parse-budget.ts";
import { COUNT_KEY, formatCount, misspeltKey, parseCountLimit, unitsAgree } from "./count-limit.ts";

const FIXED = ["benchmark", ...BUDGET_STATISTICS, "max-regression", "warn"];

describe("parseCountLimit", () => {
  it.each([
    ["< 2.5M", "<", 2_500_000, undefined],
    ["<= 2500000", "<=", 2_500_000, undefined],
    ["<2500000", "<", 2_500_000, undefined],
    ["< 1.2G", "<", 1_200_000_000, undefined],
    ["< 800k", "<", 800_000, undefined],
    ["< 800K", "<", 800_000, undefined],
    ["< 3T", "<", 3e12, undefined],
    ["< 0", "<", 0, undefined],
    ["< 2.5e6", "<", 2_500_000, undefined],
    ["< 2.5e3k", "<", 2_500_000, undefined],
    // "1.1M" is exactly 1 100 000, not 1.1 × 1e6 = 1100000.0000000002.
    ["< 1.1M", "<", 1_100_000, undefined],
    ["< 2.5M instructions", "<", 2_500_000, "instructions"],
    ["< 2.5 M instructions", "<", 2_500_000, "instructions"],
    ["<= 2431998 instr", "<=", 2_431_998, "instructions"],
    ["< 800k hits", "<", 800_000, "hits"],
    ["< 1 MiB", "<", 2 ** 20, "B"],
    ["< 1MiB", "<", 2 ** 20, "B"],
    ["< 1.5 KiB", "<", 1536, "B"],
    ["< 1 MB", "<", 1e6, "B"],
    ["< 64 kB", "<", 64_000, "B"],
    ["< 2 Mi bytes", "<", 2 * 2 ** 20, "B"],
    ["< 12 blocks", "<", 12, "blocks"],
    ["<= 0 errors", "<=", 0, "errors"],
  ])("%s", (text, op, value, unit) => {
    const limit = parseCountLimit("instructions", text);
    expect(limit).toMatchObject({ metric: "instructions", op, value, text: text.trim() });
    expect(limit.unit).toBe(unit);
  });

  it("keeps the text as written, trimmed", () => {
    expect(parseCountLimit("total_bytes", "  <= 1 MiB ").text).toBe("<= 1 MiB");
  });

  it.each([
    [25, 'expected a string such as "< 2.5M", got 25'],
    [undefined, 'expected a string such as "< 2.5M", got nothing'],
    ["2.5M", 'expected "<" or "<=", a number and an optional multiplier or unit'],
    ["< M", 'expected "<" or "<=", a number'],
    ["< 2,500,000", '"< 2,500,000": write the number without separators'],
    ["< 2_500_000", "write the number without separators"],
    ["< 2.5M\ninstructions", 'expected "<" or "<=", a number'],
    ["> 2.5M", '"> 2.5M": a count is smaller-is-better, so its limit is an upper bound'],
    [">= 1", 'use "<" or "<="'],
    ["< -3", '"< -3": a count is never negative'],
    ["< \u22123k", "a count is never negative"],
    ["< 1e999", '"< 1e999": the number is not finite'],
    ["< 1e300G", "the number is not finite"],
    ["< 1e16", '"< 1e16": above 9007199254740991, where a count can no longer be held exactly'],
    ["< 2.5X", '"< 2.5X": unknown suffix "X": k (or K), M, G and T multiply'],
    ["< 2.5m", 'unknown suffix "m"'],
    ["< 2.5 b", 'unknown suffix "b"'],
    ["< 512Ki", '"< 512Ki": binary multipliers (Ki, Mi, Gi, Ti) are for bytes: write "< 512KiB"'],
    ["< 2 Mi hits", "binary multipliers (Ki, Mi, Gi, Ti) are for bytes, not hits"],
    ["< 2 Kib", "binary multipliers (Ki, Mi, Gi, Ti) are for bytes, not bit"],
    ["< 1 k MB", '"< 1 k MB": two multipliers (k and MB)'],
    [
      "< 25ms",
      '"< 25ms": "ms" is a time, and instructions is a count; a time limit goes under median',
    ],
    ["< 2 s", "is a time"],
    ["< 5 MiB/s", '"< 5 MiB/s": "MiB/s" is a rate, and instructions is a count'],
    ["< 5 M s", '"s" is not a count unit'],
    ["< 5 in+out", "expected a multiplier or a unit after the number"],
    ["< 5 hits total", "expected a multiplier or a unit after the number"],
  ])("rejects %j", (raw, message) => {
    expect(() => parseCountLimit("instructions", raw)).toThrow(message);
  });
});

describe("unitsAgree", () => {
  it.each([
    ["instructions", "instructions", true],
    ["instr", "instructions", true],
    ["bytes", "B", true],
    ["B", "B", true],
    ["hit", "hits", true],
    ["hits", "hits", true],
    ["miss", "misses", true],
    ["error", "errors", true],
    ["cycles", "instructions", false],
    ["bit", "B", false],
    ["hits", "blocks", false],
  ])("%s vs %s → %s", (limit, entry, expected) => {
    expect(unitsAgree(limit, entry)).toBe(expected);
  });
});

describe("formatCount", () => {
  it.each([
    [0, "0"],
    [915, "915"],
    [2_431_998, "2,431,998"],
    [2_500_000, "2,500,000"],
    [Number.MAX_SAFE_INTEGER, "9,007,199,254,740,991"],
    [1_153_433.6, "1,153,433.6"],
    [0.5, "0.5"],
    [1.0004, "1"],
    [-1500, "-1,500"],
  ])("%d → %s", (value, text) => {
    expect(formatCount(value)).toBe(text);
  });
});

describe("misspeltKey", () => {
  it.each([
    ["medain", "median"],
    ["meidan", "median"],
    ["Median", "median"],
    ["means", "mean"],
    ["p90", "p50 p95 p99"],
    ["p999", "p99"],
    ["p5", "p50 p95"],
    ["max_regresion", "max-regression"],
    ["maxregression", "max-regression"],
    ["benchmarks", "benchmark"],
  ])("%s → %s", (key, fixed) => {
    expect(misspeltKey(key, FIXED)).toEqual(fixed.split(" "));
  });

  it("takes no metric that benchgate's ingests write for a misspelt fixed key", () => {
    const gungraun = [...TOOLS.values()].flatMap((tool) =>
      [...tool.metrics.values()].map((m) => m.metric),
    );
    const file = new URL(
      "../../test/fixtures/cachegrind-3.19/cachegrind.out.true-sim",
      import.meta.url,
    );
    const cachegrind = parseCachegrind(readFileSync(file, "utf8"), "cachegrind.out.true-sim", {
      suite: undefined,
      name: undefined,
      guess: () => undefined,
    }).benchmarks.map((b) => b.metric);
    const metrics = [...gungraun, ...cachegrind];
    // The real metrics: gungraun's (instructions, total_bytes, …) and Cachegrind's events (d1mr, bc, …).
    expect(metrics).toEqual(expect.arrayContaining(["instructions", "total_bytes", "d1mr", "bim"]));
    for (const metric of metrics) {
      expect(metric).toMatch(COUNT_KEY);
      expect([metric, misspeltKey(metric ?? "", FIXED)]).toEqual([metric, []]);
    }
  });
});
