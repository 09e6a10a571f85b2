import { describe, expect, it } from "vitest";
import type { BenchmarkSeries, Observation } from "./pairing.ts";
import { headToHeadResults, logRatioEstimate, speedup, type HeadToHead } from "./ratios.ts";
import { tQuantile } from "./distributions.ts";
import { gaussian, rng } from "../../test/support/synthetic.ts";

type Rounds = Readonly<Record<number, number>>;

function observations(values: Rounds): Map<number, Observation> {
  return new Map(
    Object.entries(values).map(([r, value]) => [
      Number(r),
      { value, samples: [], interval: undefined },
    ]),
  );
}

function series(
  id: string,
  head: Rounds,
  base: Rounds = {},
  over: Partial<BenchmarkSeries> = {},
): BenchmarkSeries {
  return {
    id,
    suite: "s",
    source: "criterion",
    unit: "ns",
    direction: "smaller_is_better",
    statistic: "sample median",
    metric: undefined,
    deterministic: false,
    secondary: false,
    base: observations(base),
    head: observations(head),
    ...over,
  };
}

describe("logRatioEstimate", () => {
  it("is exp of the mean and of the t interval with n − 1 degrees of freedom", () => {
    const d = [0.1, 0.3, 0.2, 0.25, 0.15];
    const m = 0.2;
    const sd = Math.sqrt((0.1 ** 2 + 0.1 ** 2 + 0 + 0.05 ** 2 + 0.05 ** 2) / 4);
    const half = tQuantile(0.975, 4) * (sd / Math.sqrt(5));
    const r = logRatioEstimate(d, 0.95);
    expect(r.estimate).toBeCloseTo(Math.exp(m), 12);
    expect(r.interval?.[0]).toBeCloseTo(Math.exp(m - half), 12);
    expect(r.interval?.[1]).toBeCloseTo(Math.exp(m + half), 12);
    expect(r.rounds).toBe(5);
    // t(0.975, 4) = 2.776: the textbook value, not the normal's 1.96.
    expect(tQuantile(0.975, 4)).toBeCloseTo(2.7764, 4);
  });

  it("gives no interval for one round, and a point for identical rounds", () => {
    const one = logRatioEstimate([Math.log(3)], 0.95);
    expect(one).toMatchObject({ interval: undefined, rounds: 1 });
    expect(one.estimate).toBeCloseTo(3, 12);
    const exact = logRatioEstimate([Math.log(2), Math.log(2), Math.log(2)], 0.99);
    expect(exact.interval?.[0]).toBeCloseTo(2, 12);
    expect(exact.interval?.[1]).toBeCloseTo(2, 12);
  });

  it("widens with the level", () => {
    const d = [0.1, 0.3, 0.2];
    const narrow = logRatioEstimate(d, 0.9).interval ?? [0, 0];
    const wide = logRatioEstimate(d, 0.99).interval ?? [0, 0];
    expect(wide[0]).toBeLessThan(narrow[0]);
    expect(wide[1]).toBeGreaterThan(narrow[1]);
  });

  it("refuses nonsense", () => {
    expect(() => logRatioEstimate([], 0.95)).toThrow(RangeError);
    expect(() => logRatioEstimate([Number.NaN], 0.95)).toThrow(RangeError);
    expect(() => logRatioEstimate([1], 1)).toThrow(RangeError);
  });
});

describe("speedup", () => {
  it("cancels a shock shared by the round: time(B) / time(A), exactly 5 in every round", () => {
    // Round 2 ran twice as slow for everything, round 3 four times: the ratio does not move.
    const a = series("atomic", { 1: 10, 2: 20, 3: 40 });
    const b = series("rwlock", { 1: 50, 2: 100, 3: 200 });
    const s = speedup(a, b, "head", 0.95);
    expect(s).toMatchObject({ kind: "speedup", rounds: 3, roundNumbers: [1, 2, 3] });
    if (s.kind !== "speedup") return;
    expect(s.estimate).toBeCloseTo(5, 12);
    expect(s.interval?.[0]).toBeCloseTo(5, 12);
    expect(s.interval?.[1]).toBeCloseTo(5, 12);
  });

  it("reads a bigger-is-better unit as value(A) / value(B)", () => {
    const over = { unit: "req/s", direction: "bigger_is_better" } as const;
    const rust = series("rust/hello req/s", { 1: 8100, 2: 4050 }, {}, over);
    const python = series("python/hello req/s", { 1: 1000, 2: 500 }, {}, over);
    const s = speedup(rust, python, "head", 0.95);
    expect(s.kind === "speedup" && s.estimate).toBeCloseTo(8.1, 12);
  });

  it("uses only the rounds that measured both (sequential rounds stop benchmarks early)", () => {
    const a = series("a", { 1: 10, 2: 10, 3: 10, 4: 99, 5: 99 });
    const b = series("b", { 1: 30, 2: 31, 3: 29 });
    const s = speedup(a, b, "head", 0.95);
    expect(s).toMatchObject({ kind: "speedup", rounds: 3, roundNumbers: [1, 2, 3] });
  });

  it("takes one side only: head's rounds for head, base's for base", () => {
    const a = series("a", { 1: 10, 2: 10 }, { 1: 20, 2: 20 });
    const b = series("b", { 1: 50, 2: 50 }, { 1: 40, 2: 40 });
    const head = speedup(a, b, "head", 0.95);
    const base = speedup(a, b, "base", 0.95);
    expect(head.kind === "speedup" && head.estimate).toBeCloseTo(5, 12);
    expect(base.kind === "speedup" && base.estimate).toBeCloseTo(2, 12);
  });

  it("one round: an estimate without an interval", () => {
    const s = speedup(series("a", { 1: 10 }), series("b", { 1: 30 }), "head", 0.95);
    expect(s).toMatchObject({ kind: "speedup", rounds: 1, interval: undefined });
  });

  it.each([
    [
      "different units",
      series("a", { 1: 1 }),
      series("b", { 1: 1 }, {}, { unit: "req/s", direction: "bigger_is_better" }),
      '"a" is measured in ns (smaller_is_better) and "b" in req/s (bigger_is_better): a speedup compares two benchmarks of one unit and direction',
    ],
    [
      "not measured on the side",
      series("a", {}, { 1: 1 }),
      series("b", { 1: 1 }),
      '"a" was not measured on head',
    ],
    [
      "never in the same round",
      series("a", { 1: 1, 2: 1 }),
      series("b", { 3: 1 }),
      '"a" and "b" were never measured in the same head round ("a" in 1, 2, "b" in 3)',
    ],
    [
      "a zero time",
      series("a", { 1: 1, 2: 0 }),
      series("b", { 1: 1, 2: 1 }),
      '"a" reads 0 ns in head round 2: a ratio needs positive values',
    ],
  ])("says why there is no ratio: %s", (_, a, b, reason) => {
    expect(speedup(a, b, "head", 0.95)).toEqual({ kind: "none", reason });
  });

  it("stays finite for values far apart", () => {
    const s = speedup(
      series("a", { 1: 1e-10, 2: 1e-10 }),
      series("b", { 1: 1e300, 2: 1e300 }),
      "head",
      0.95,
    );
    expect(s.kind === "speedup" && s.estimate).toBe(Infinity); // exp(714): beyond a double, but no error
    const t = speedup(
      series("a", { 1: 1e-10, 2: 2e-10 }),
      series("b", { 1: 1e290, 2: 1e290 }),
      "head",
      0.95,
    );
    expect(t.kind === "speedup" && Number.isFinite(t.estimate)).toBe(true);
  });

  it("cuts a long id in its reason", () => {
    const long = "x".repeat(1024);
    const s = speedup(series(long, {}), series("b", { 1: 1 }), "head", 0.95);
    expect(s.kind === "none" && s.reason).toBe(`"${"x".repeat(100)}…" was not measured on head`);
  });
});

describe("headToHeadResults", () => {
  const over = { unit: "req/s", direction: "bigger_is_better" } as const;
  const pair: HeadToHead = {
    suite: "http",
    benchmark: "hello req/s",
    reference: { variant: "python", id: "python/hello req/s" },
    other: { variant: "rust", id: "rust/hello req/s" },
  };

  it("gives other over reference on head and on base, at the level asked", () => {
    const python = series(
      "python/hello req/s",
      { 1: 1000, 2: 900, 3: 1100 },
      { 1: 1000, 2: 1000 },
      over,
    );
    const rust = series(
      "rust/hello req/s",
      { 1: 8000, 2: 7400, 3: 9000 },
      { 1: 4000, 2: 4100 },
      over,
    );
    const [r] = headToHeadResults([pair], [python, rust], 0.95);
    expect(r).toMatchObject({
      suite: "http",
      benchmark: "hello req/s",
      reference: { variant: "python", id: "python/hello req/s" },
      other: { variant: "rust", id: "rust/hello req/s" },
      unit: "req/s",
      direction: "bigger_is_better",
      level: 0.95,
      head: { rounds: 3 },
      base: { rounds: 2 },
    });
    expect(r?.head.ratio).toBeCloseTo(
      Math.exp((Math.log(8) + Math.log(7400 / 900) + Math.log(9000 / 1100)) / 3),
      12,
    );
    expect(r?.base.ratio).toBeCloseTo(Math.sqrt(4 * 4.1), 12);
    const [lo, hi] = r?.head.interval ?? [0, 0];
    expect(lo).toBeLessThan(r?.head.ratio ?? 0);
    expect(hi).toBeGreaterThan(r?.head.ratio ?? 0);
  });

  it("says which id was not measured, on both sides", () => {
    const python = series("python/hello req/s", { 1: 1000 }, {}, over);
    const [r] = headToHeadResults([pair], [python], 0.95);
    expect(r?.head).toEqual({
      ratio: null,
      interval: null,
      rounds: 0,
      reason: '"rust/hello req/s" was not measured',
    });
    expect(r?.base).toEqual(r?.head);
    expect(r?.unit).toBe("req/s");
  });

  it("leaves out a pair of which neither benchmark ran", () => {
    expect(headToHeadResults([pair], [series("other", { 1: 1 })], 0.95)).toEqual([]);
  });

  it("new on head: a ratio on head, a reason on base", () => {
    const python = series("python/hello req/s", { 1: 1000, 2: 1000 }, { 1: 1000, 2: 1000 }, over);
    const rust = series("rust/hello req/s", { 1: 3000, 2: 3000 }, {}, over);
    const [r] = headToHeadResults([pair], [python, rust], 0.95);
    expect(r?.head.ratio).toBeCloseTo(3, 12);
    expect(r?.base).toMatchObject({
      ratio: null,
      reason: '"rust/hello req/s" was not measured on base',
    });
  });
});

// The interval's coverage, simulated (docs/statistics.md §12). Each run draws n rounds of two
// benchmarks whose true speedup is 4: per round a shock shared by both (the machine got slower),
// one round shifted ×3 as a whole, and each benchmark's own noise, lognormal or heavy-tailed
// (Student's t with 3 df on the log scale). The t interval of the mean log ratio must cover 4 in
// at least its nominal share of runs, less a margin for the simulation's own error
// (±0.35 % at 4000 runs). Seeded: the same numbers every time.
describe("speedup interval coverage (simulated)", () => {
  const TRUE = 4;
  const RUNS = 4000;

  function simulate(
    seed: number,
    rounds: number,
    level: number,
    noise: (normal: () => number) => number,
  ): number {
    const uniform = rng(seed);
    const normal = gaussian(uniform);
    let covered = 0;
    for (let run = 0; run < RUNS; run++) {
      const shifted = 1 + Math.floor(uniform() * rounds);
      const a: Record<number, number> = {};
      const b: Record<number, number> = {};
      for (let r = 1; r <= rounds; r++) {
        const shock = 0.3 * normal() + (r === shifted ? Math.log(3) : 0);
        a[r] = 1000 * Math.exp(shock + noise(normal));
        b[r] = 1000 * TRUE * Math.exp(shock + noise(normal));
      }
      const s = speedup(series("a", a), series("b", b), "head", level);
      if (s.kind !== "speedup" || s.interval === undefined) throw new Error("no interval");
      if (s.interval[0] <= TRUE && TRUE <= s.interval[1]) covered += 1;
    }
    return covered / RUNS;
  }

  const lognormal = (normal: () => number): number => 0.05 * normal();
  const heavy = (normal: () => number): number => {
    const z = normal();
    const chi = (normal() ** 2 + normal() ** 2 + normal() ** 2) / 3;
    return (0.03 * z) / Math.sqrt(chi);
  };

  it.each([
    ["lognormal", 3, 0.95, lognormal],
    ["lognormal", 5, 0.95, lognormal],
    ["lognormal", 10, 0.95, lognormal],
    ["lognormal, 3 claims (Bonferroni)", 5, 1 - 0.05 / 3, lognormal],
    ["heavy tails", 3, 0.95, heavy],
    ["heavy tails", 5, 0.95, heavy],
    ["heavy tails", 10, 0.95, heavy],
    ["heavy tails, 3 claims (Bonferroni)", 5, 1 - 0.05 / 3, heavy],
  ] as const)("%s, %d rounds, level %f", (_, rounds, level, noise) => {
    const coverage = simulate(1000 + rounds, rounds, level, noise);
    expect(coverage).toBeGreaterThanOrEqual(level - 0.01);
    // Not vacuous: an interval that covers in (nearly) every run would pass any claim's test.
    expect(coverage).toBeLessThan(Math.min(0.999, level + 0.04));
  });
});
