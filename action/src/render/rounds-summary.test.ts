import { describe, expect, it } from "vitest";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { renderComment } from "./comment.ts";
import { renderText } from "./text.ts";
import { sequentialLine, suiteShiftLine } from "./rounds-summary.ts";
import type { SuiteResult } from "../schemas/report.gen.ts";

const suite: SuiteResult = {
  suite: "micro <b>",
  unit: "ns",
  benchmarks: 40,
  model: "two-way",
  estimated_rounds: 5,
  order_effect: 0.02,
  round_sd: 0.011,
  round_df: 3,
  shift: { change: 0.052, ci: [0.031, 0.074], p: 0.001, q: 0.004, verdict: "regressed" },
};

function sequentialReport() {
  const base = makeReport();
  return makeReport({
    settings: {
      ...base.settings,
      rounds: 7,
      design: { kind: "sequential", min_rounds: 3, max_rounds: 15 },
    },
    suites: [suite],
    benchmarks: [
      makeEntry({
        id: "micro/a",
        change: 0.9,
        verdict: "regressed",
        rounds: 3,
        stopped: { reason: "regressed", after_round: 3 },
      }),
      makeEntry({
        id: "micro/b",
        change: 0.2,
        ci: [-0.1, 0.5],
        verdict: "inconclusive",
        rounds: 3,
        stopped: { reason: "futile", after_round: 3 },
      }),
      makeEntry({
        id: "micro/c",
        change: 0.001,
        verdict: "unchanged",
        rounds: 7,
        stopped: { reason: "ruled-out", after_round: 7 },
      }),
    ],
  });
}

describe("rounds in the comment and the terminal", () => {
  it("says how many rounds each benchmark got and why it stopped", () => {
    const r = sequentialReport();
    expect(sequentialLine(r)).toBe(
      "sequential rounds 3–15: 3 benchmarks got 3–7 rounds (13 benchmark-runs): 1 regression confirmed, 1 more rounds could not settle it, 1 regression ruled out",
    );
    const comment = renderComment(r);
    expect(comment).toContain(
      "sequential rounds (3–15; 7 run), round shocks and the run-order effect fitted across each suite",
    );
    // A report whose suites were all analysed per benchmark does not claim a round model.
    const perBenchmark = renderComment({
      ...r,
      suites: [{ ...suite, model: "per-benchmark", shift: null }],
    });
    expect(perBenchmark).toContain("sequential rounds (3–15; 7 run), paired by round ·");
    expect(comment).toContain(
      "- sequential rounds 3–15: 3 benchmarks got 3–7 rounds &#40;13 benchmark-runs&#41;: 1 regression confirmed",
    );
    expect(comment).toContain("<code>micro &lt;b&gt;</code>: suite-wide +5.2 %");
    expect(comment).not.toContain("micro <b>");
    const text = renderText(r, { color: false });
    expect(text).toContain(`  ${sequentialLine(r)}`);
    expect(text).toContain("micro <b>: suite-wide +5.2 % (CI +3.1 % to +7.4 %, regressed)");
  });

  it("says a load test's secondary series was not recorded in later rounds, not that it was not measured", () => {
    // The runner measures p95 in every round of its suite but keeps only the open benchmarks.
    const r = sequentialReport();
    const p95 = makeEntry({
      id: "rust/health p95",
      secondary: true,
      verdict: "inconclusive",
      rounds: 3,
      stopped: { reason: "not-measured", after_round: 3 },
    });
    expect(sequentialLine({ ...r, benchmarks: [...r.benchmarks, p95] })).toMatch(
      /, 1 not recorded in later rounds$/u,
    );
  });

  it("says nothing about rounds for a fixed design", () => {
    expect(sequentialLine(makeReport())).toBe("");
  });

  it("names a suite analysed per benchmark", () => {
    const line = suiteShiftLine(
      { ...suite, model: "per-benchmark", shift: null, round_sd: null, order_effect: null },
      10,
    );
    expect(line).toBe("analysed per benchmark (fewer than 10 per round)");
  });
});
