// Issue 27: the core's own texts (report.json's reasons and each benchmark's notes) write a
// relative change of ±1,000 % or more as its ratio (×30), as the comment does, never as
// "+2900.0 %": report.json is read by more than the renderers, which tame what they show.
import { describe, expect, it } from "vitest";
import { compare } from "./compare-summaries.ts";
import { nonDeterministicNote } from "./counts.ts";
import { singleRunFloor, untested, type Decision } from "./decision.ts";
import { pairSummaries, type BenchmarkSeries } from "./pairing.ts";
import { resolveSettings } from "./settings.ts";
import { scaleSamples, syntheticSuite } from "../../test/support/synthetic.ts";

const settings = resolveSettings();

/** Every percentage in `text`, as a number: "+2,900.0 %" → 2900. */
function percentages(text: string): number[] {
  return [...text.matchAll(/((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?) ?%/gu)].map((m) =>
    Number((m[1] as string).replaceAll(",", "")),
  );
}

/** A ×30 text: the ratio is there, and no percentage of 1,000 or more. */
function expectTamed(text: string): void {
  expect(text).toContain("×30");
  expect(percentages(text).filter((p) => p >= 1000)).toEqual([]);
}

describe("the core's reasons and notes on a ×30 change", () => {
  it("the suite-wide regression and its interval are ratios", () => {
    const s = syntheticSuite({ benchmarks: 20, rounds: 5, samples: 20, noise: 0.01, seed: 31 });
    const report = compare(
      s.base,
      scaleSamples(s.head, () => 30),
      { settings },
    );
    const reason = report.reasons.find((r) => r.includes("suite-wide regression"));
    expect(reason).toBeDefined();
    expectTamed(reason as string);
    expect(reason).toMatch(/a suite-wide regression of ×30 \(every benchmark, CI ×\d+ to ×\d+\)/);
    for (const r of report.reasons) expect(percentages(r).filter((p) => p >= 1000)).toEqual([]);
    for (const e of report.benchmarks)
      for (const n of e.notes) expect(percentages(n).filter((p) => p >= 1000)).toEqual([]);
  });

  it("the single-run rule's slowdown is a ratio", () => {
    // One run per side, head ×30, judged inconclusive by a (hostile) history's noise.
    const s = syntheticSuite({ benchmarks: 1, rounds: 1, samples: 20, noise: 0.01, seed: 7 });
    const paired = pairSummaries(
      s.base,
      scaleSamples(s.head, () => 30),
    );
    const one = paired.series[0] as BenchmarkSeries;
    const d: Decision = { ...untested(one, "inconclusive"), rounds: 1, estimate: Math.log(30) };
    const floored = singleRunFloor(d, settings);
    expect(floored.verdict).toBe("regressed");
    const note = floored.notes.find((n) => n.startsWith("failed by the single-run rule"));
    expect(note).toBeDefined();
    expectTamed(note as string);
    expect(note).toMatch(/a slowdown of ×30, beyond the unverified threshold of \d+\.\d %/);
  });

  it("a non-deterministic count's spread is a ratio, and a small one keeps two decimals", () => {
    const note = nonDeterministicNote({
      status: "non-deterministic",
      spread: { base: 29, head: 0.0025 },
      threshold: 0.01,
      noiseFloor: 0.001,
    });
    expectTamed(note);
    expect(note).toContain("spread ×30 in base, 0.25 % in head");
  });
});
