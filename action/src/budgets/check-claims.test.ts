import { beforeAll, describe, expect, it } from "vitest";
import { pairSummaries, type BenchmarkSeries, type SourcedSummary } from "../core/pairing.ts";
import { ingestCriterionTree } from "../ingest/criterion/criterion-tree.ts";
import { nodeFileReader } from "../io/node-files.ts";
import { checkClaims, claimLevel, formatFactor } from "./check-claims.ts";
import { parseClaims } from "./parse-claim.ts";
import { FIXTURES } from "../../test/support/fixtures.ts";

/**
 * Head side of two real rounds: Criterion 0.8.2's two measured runs of the tiny bench (the
 * `base` and `head` baselines, one process each), every benchmark of a run in one process.
 * sum_vec/10000 sums ten times the numbers of sum_vec/1000: about 11.3× its time in each run.
 */
async function capturedRounds(): Promise<BenchmarkSeries[]> {
  const head: SourcedSummary[] = [];
  for (const [round, baseline] of [
    [1, "base"],
    [2, "head"],
  ] as const) {
    const summary = await ingestCriterionTree(
      `${FIXTURES}/criterion-0.8.2`,
      { baseline, suite: "tiny", side: "head", round },
      nodeFileReader,
    );
    head.push({ source: `criterion ${baseline}`, summary: { ...summary, side: "head" } });
  }
  const base = head.map((h) => ({ ...h, summary: { ...h.summary, side: "base" } }));
  return [...pairSummaries(base, head).series];
}

const claim = (faster: string, than: string, by: string): Record<string, string> => ({
  faster,
  than,
  by,
});

describe("checkClaims on captured Criterion rounds", () => {
  let series: BenchmarkSeries[];
  beforeAll(async () => {
    series = await capturedRounds();
  });

  it("holds, false and inconclusive from the interval, at the Bonferroni level for three claims", () => {
    const claims = parseClaims([
      claim("sum_vec/1000", "sum_vec/10000", "≥ 10x"),
      claim("sum_vec/1000", "sum_vec/10000", "≥ 13x"),
      claim("sum_vec/1000", "sum_vec/10000", "≥ 11.3x"),
    ]);
    const results = checkClaims(claims, { series, confidence: 0.95 });
    expect(results.map((r) => [r.verdict, r.fails])).toEqual([
      ["holds", false],
      ["false", true],
      ["inconclusive", false],
    ]);
    const [held] = results;
    expect(held?.level).toBeCloseTo(1 - 0.05 / 3, 12);
    expect(held?.rounds).toBe(2);
    expect(held?.unit).toBe("ns");
    expect(held?.ratio).toBeGreaterThan(11);
    expect(held?.ratio).toBeLessThan(11.6);
    const [lower, upper] = held?.interval ?? [0, 0];
    expect(lower).toBeGreaterThanOrEqual(10);
    expect(upper).toBeLessThan(13);
    expect(lower).toBeLessThan(11.3);
    expect(upper).toBeGreaterThan(11.3);
    expect(held?.reason).toMatch(
      /^11\.\d× over 2 head rounds, \[10\.\d+×, 1[12]\.\d+×\] \(98\.33 %\): the lower end is at least 10×$/u,
    );
    expect(results[1]?.reason).toContain("even the upper end is below 13×");
    expect(results[2]?.reason).toContain(
      "the interval straddles 11.3×; more rounds would decide it",
    );
  });

  it("a claim alone gets the statistics' own level, and its interval is narrower", () => {
    const one = checkClaims(parseClaims([claim("sum_vec/1000", "sum_vec/10000", "≥ 10x")]), {
      series,
      confidence: 0.95,
    });
    const three = checkClaims(
      parseClaims([
        claim("sum_vec/1000", "sum_vec/10000", "≥ 10x"),
        claim("sum_vec/1000", "sum_vec/10000", "≥ 10x"),
        claim("sum_vec/1000", "sum_vec/10000", "≥ 10x"),
      ]),
      { series, confidence: 0.95 },
    );
    expect(one[0]?.level).toBe(0.95);
    const width = (r: (typeof one)[number] | undefined): number =>
      (r?.interval?.[1] ?? 0) - (r?.interval?.[0] ?? 0);
    expect(width(one[0])).toBeLessThan(width(three[0]));
  });

  it("a percentage is the share of the time saved: ≥ 90 % holds (S ≥ 10), ≥ 95 % is false (S ≥ 20)", () => {
    const results = checkClaims(
      parseClaims([
        claim("sum_vec/1000", "sum_vec/10000", "≥ 90 %"),
        claim("sum_vec/1000", "sum_vec/10000", "≥ 95%"),
      ]),
      { series, confidence: 0.95 },
    );
    expect(results.map((r) => r.verdict)).toEqual(["holds", "false"]);
    expect(results[1]?.bound).toBeCloseTo(20, 12);
  });

  it("swapped benchmarks: the slower one is not faster, the claim is false", () => {
    const [r] = checkClaims(parseClaims([claim("sum_vec/10000", "sum_vec/1000", "≥ 1x")]), {
      series,
      confidence: 0.95,
    });
    expect(r).toMatchObject({ verdict: "false", fails: true });
    expect(r?.ratio).toBeLessThan(0.1);
  });

  it("fails a claim on an id that was not measured, and leaves it unchecked after a filtered run", () => {
    const claims = parseClaims([claim("sum_vec/100", "sum_vec/10000", "≥ 2x")]);
    const [typo] = checkClaims(claims, { series, confidence: 0.95 });
    expect(typo).toEqual({
      faster: "sum_vec/100",
      than: "sum_vec/10000",
      by: "≥ 2x",
      bound: 2,
      level: 0.95,
      ratio: null,
      interval: null,
      rounds: 0,
      verdict: "unchecked",
      fails: true,
      reason: '"sum_vec/100" was not measured on head: check the id (claims name exact ids)',
    });
    const [filtered] = checkClaims(claims, { series, confidence: 0.95, filtered: true });
    expect(filtered).toMatchObject({
      verdict: "unchecked",
      fails: false,
      reason: 'not checked: this run was filtered and "sum_vec/100" was not measured',
    });
  });
});

describe("checkClaims on hand-made series", () => {
  function one(id: string, values: readonly number[], over: Partial<BenchmarkSeries> = {}) {
    const head = new Map(
      values.map((value, i) => [i + 1, { value, samples: [], interval: undefined }] as const),
    );
    const s: BenchmarkSeries = {
      id,
      suite: "s",
      source: "custom",
      unit: "ns",
      direction: "smaller_is_better",
      statistic: "median",
      metric: undefined,
      deterministic: false,
      secondary: false,
      base: new Map(),
      head,
      ...over,
    };
    return s;
  }

  it("one round: inconclusive, with the estimate and no interval; it does not fail", () => {
    const [r] = checkClaims(parseClaims([claim("a", "b", "≥ 2x")]), {
      series: [one("a", [10]), one("b", [80])],
      confidence: 0.95,
    });
    expect(r).toMatchObject({ verdict: "inconclusive", fails: false, interval: null });
    expect(r?.ratio).toBeCloseTo(8, 12);
    expect(r?.reason).toBe(
      "8× over 1 head round: one round gives no interval, so the claim is not decided",
    );
  });

  it("a claim between a time and a rate cannot be checked, and fails", () => {
    const [r] = checkClaims(parseClaims([claim("a", "b", "≥ 2x")]), {
      series: [
        one("a", [10, 10]),
        one("b", [80, 80], { unit: "req/s", direction: "bigger_is_better" }),
      ],
      confidence: 0.95,
    });
    expect(r).toMatchObject({ verdict: "unchecked", fails: true, unit: "ns" });
    expect(r?.reason).toContain(
      'cannot check: "a" is measured in ns (smaller_is_better) and "b" in req/s',
    );
  });

  it("rates: the bigger req/s is the faster one", () => {
    const rate = { unit: "req/s", direction: "bigger_is_better" } as const;
    const [r] = checkClaims(parseClaims([claim("rust", "python", "≥ 5x")]), {
      series: [one("rust", [8100, 7900, 8300], rate), one("python", [1000, 990, 1010], rate)],
      confidence: 0.95,
    });
    expect(r).toMatchObject({ verdict: "holds", direction: "bigger_is_better", unit: "req/s" });
    expect(r?.ratio).toBeCloseTo(8.1, 1);
  });

  it("no claims, no results", () => {
    expect(checkClaims([], { series: [], confidence: 0.95 })).toEqual([]);
  });
});

describe("claimLevel and formatFactor", () => {
  it("splits α over the claims", () => {
    expect(claimLevel(0.95, 1)).toBe(0.95);
    expect(claimLevel(0.95, 5)).toBeCloseTo(0.99, 12);
    expect(claimLevel(0.9, 0)).toBe(0.9);
  });

  it("writes three significant digits", () => {
    expect(formatFactor(8.1234)).toBe("8.12×");
    expect(formatFactor(11.25)).toBe("11.3×");
    expect(formatFactor(0.04567)).toBe("0.0457×");
    expect(formatFactor(12345)).toBe("12300×");
  });
});
