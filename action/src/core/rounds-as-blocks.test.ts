// The decision rule under real noise: shared round shocks, unbalanced run orders, a change of the
// whole suite, and degrees of freedom that match the variance used.
import { describe, expect, it } from "vitest";
import { compare } from "./compare-summaries.ts";
import { resolveSettings } from "./settings.ts";
import type { SourcedSummary } from "./pairing.ts";
import { scaleSamples, syntheticSuite } from "../../test/support/synthetic.ts";

const settings = resolveSettings();

const mapHead = scaleSamples;

/** Swaps the labels of the rounds in `swap`: still A/A, with another run order. */
function swapRounds(s: { base: SourcedSummary[]; head: SourcedSummary[] }, swap: Set<number>) {
  return {
    base: s.base.map((b, i) => (swap.has(b.summary.round) ? relabel(s.head[i]!, "base") : b)),
    head: s.head.map((h, i) => (swap.has(h.summary.round) ? relabel(s.base[i]!, "head") : h)),
  };
}

function relabel(f: SourcedSummary, side: "base" | "head"): SourcedSummary {
  return { ...f, summary: { ...f.summary, side } };
}

describe("rounds as blocks", () => {
  it("reports a +5 % change of every benchmark as a suite-wide regression (quiet data)", () => {
    const s = syntheticSuite({ benchmarks: 20, rounds: 5, samples: 20, noise: 0.01, seed: 31 });
    const report = compare(
      s.base,
      mapHead(s.head, () => 1.05),
      { settings },
    );
    const suite = report.suites![0]!;
    expect(suite.model).toBe("two-way");
    expect(suite.shift!.verdict).toBe("regressed");
    expect(suite.shift!.change).toBeCloseTo(0.05, 2);
    expect(report.verdict).toBe("fail");
    expect(report.reasons[0]).toMatch(
      /suite synthetic: a suite-wide regression of \+[45]\.\d % \(every benchmark, CI \+/,
    );
    // Never normalised away: every benchmark's own interval carries the shift.
    for (const e of report.benchmarks) {
      expect(e.change!).toBeGreaterThan(0.03);
      expect(e.ci![0]).toBeGreaterThan(0);
    }
  });

  it("does not fail A/A data when one round of head is 10 % slower for every benchmark", () => {
    for (const seed of [41, 42, 43, 44, 45]) {
      const s = syntheticSuite({
        benchmarks: 30,
        rounds: 5,
        samples: 10,
        noise: 0.03,
        roundShock: 0.01,
        seed,
      });
      for (const round of [1, 2, 3, 4, 5]) {
        const report = compare(
          s.base,
          mapHead(s.head, (r) => (r === round ? 1.1 : 1)),
          { settings },
        );
        expect(report.counts.regressed).toBe(0);
        expect(report.suites![0]!.shift!.verdict).not.toBe("regressed");
      }
    }
  });

  it("does not fail A/A data with a strong run-order effect in any order pattern of 5 rounds", () => {
    const s = syntheticSuite({
      benchmarks: 30,
      rounds: 5,
      samples: 10,
      noise: 0.03,
      periodEffect: 0.08,
      roundShock: 0.01,
      seed: 51,
    });
    let failures = 0;
    for (let mask = 0; mask < 32; mask++) {
      const swap = new Set([1, 2, 3, 4, 5].filter((r) => ((mask >> (r - 1)) & 1) === 1));
      const aa = swapRounds(s, swap);
      if (compare(aa.base, aa.head, { settings }).verdict === "fail") failures++;
    }
    expect(failures).toBeLessThanOrEqual(1);
  });

  it("gives a benchmark noisier than its suite the degrees of freedom of its own rounds", () => {
    const s = syntheticSuite({ benchmarks: 20, rounds: 5, samples: 10, noise: 0.01, seed: 61 });
    // One benchmark's head swings by ±40 % from round to round.
    const swing = [1.4, 0.7, 1.4, 0.7, 1.4];
    const report = compare(
      s.base,
      mapHead(s.head, (r, id) => (id === "group/bench-3" ? swing[r - 1]! : 1)),
      { settings },
    );
    const noisy = report.benchmarks.find((e) => e.id === "group/bench-3")!;
    expect(noisy.sd!.used).toBe(noisy.sd!.own);
    // Its own 4 df minus the share the round centres took: never the pooled df.
    expect(noisy.sd!.df!).toBeGreaterThan(3.5);
    expect(noisy.sd!.df!).toBeLessThan(4);
    expect(noisy.verdict).not.toBe("regressed");
    const quiet = report.benchmarks.find((e) => e.id === "group/bench-0")!;
    expect(quiet.sd!.df!).toBeGreaterThan(noisy.sd!.df!);
  });

  it("never lets a benchmark whose rounds agree look quieter than its suite", () => {
    const s = syntheticSuite({ benchmarks: 20, rounds: 4, samples: 10, noise: 0.05, seed: 62 });
    const report = compare(s.base, s.head, { settings });
    const prior = report.noise.prior_sd!;
    for (const e of report.benchmarks) expect(e.sd!.used!).toBeGreaterThanOrEqual(prior * 0.999);
  });

  it("falls back to per-benchmark analysis for a suite with fewer than 10 benchmarks", () => {
    const s = syntheticSuite({ benchmarks: 6, rounds: 5, samples: 10, noise: 0.02, seed: 63 });
    const report = compare(
      s.base,
      mapHead(s.head, (_, id) => (id === "group/bench-1" ? 2 : 1)),
      {
        settings,
      },
    );
    expect(report.suites![0]!.model).toBe("per-benchmark");
    expect(report.suites![0]!.shift).toBeNull();
    expect(report.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id)).toEqual([
      "group/bench-1",
    ]);
  });
});
