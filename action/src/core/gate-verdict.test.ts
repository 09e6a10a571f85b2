import { describe, expect, it } from "vitest";
import type { ClaimResult, HeadToHeadResult } from "../schemas/report.gen.ts";
import {
  checkConclusion,
  failureCauses,
  verdictOf,
  withBudgets,
  withClaims,
  withHeadToHead,
} from "./gate-verdict.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";

describe("withBudgets", () => {
  it("leaves a report alone when there are no budgets", () => {
    const report = makeReport();
    expect(withBudgets(report, [])).toBe(report);
  });

  it("fails a passing report on a broken budget and says why; passing budgets change nothing else", () => {
    const report = makeReport();
    expect(report.verdict).toBe("pass");
    const ok = { benchmark: "a", rule: "median < 1ms", statistic: "median", ok: true };
    expect(withBudgets(report, [ok]).verdict).toBe("pass");
    const failed = withBudgets(report, [ok, { ...ok, ok: false }]);
    expect(failed.verdict).toBe("fail");
    expect(failed.budgets).toHaveLength(2);
    expect(failed.reasons.at(-1)).toBe("1 of 2 budget checks broken");
  });
});

describe("withClaims", () => {
  const holds: ClaimResult = {
    faster: "lookup/binary",
    than: "lookup/linear",
    by: "≥ 10x",
    bound: 10,
    ratio: 31.2,
    interval: [29.5, 33],
    level: 0.975,
    rounds: 5,
    unit: "ns",
    direction: "smaller_is_better",
    verdict: "holds",
    fails: false,
    reason: "31.2× over 5 head rounds, [29.5×, 33×] (97.5 %): the lower end is at least 10×",
  };

  it("an inconclusive claim leaves the verdict alone; a false one fails the gate and says which", () => {
    const report = makeReport();
    const inconclusive = { ...holds, verdict: "inconclusive" as const, interval: null };
    expect(withClaims(report, [])).toBe(report);
    const fine = withClaims(report, [holds, inconclusive]);
    expect(fine.verdict).toBe("pass");
    expect(fine.claims).toHaveLength(2);
    expect(fine.reasons).toEqual([]);
    const wrong = {
      ...holds,
      by: "≥ 40x",
      bound: 40,
      verdict: "false" as const,
      fails: true,
      reason: "even the upper end is below 40×",
    };
    const failed = withClaims(report, [holds, wrong]);
    expect(failed.verdict).toBe("fail");
    expect(failed.reasons).toEqual([
      'claim 2 ("lookup/binary" faster than "lookup/linear" by ≥ 40x) is false: even the upper end is below 40×',
    ]);
    expect(failureCauses(failed).other).toEqual(["claims"]);
  });

  it("a claim on a benchmark that was not measured fails; cut to a reason's length", () => {
    const long = "x".repeat(1024);
    const unmeasured: ClaimResult = {
      ...holds,
      faster: long,
      ratio: null,
      interval: null,
      rounds: 0,
      verdict: "unchecked",
      fails: true,
      reason: "y".repeat(2048),
    };
    const failed = withClaims(makeReport(), [unmeasured, unmeasured, unmeasured, unmeasured]);
    expect(failed.verdict).toBe("fail");
    const [reason] = failed.reasons;
    expect(Array.from(reason ?? "").length).toBeLessThanOrEqual(2000);
    expect(reason).toMatch(
      /^claim 1 \("x{100}…" faster than "lookup\/linear" by ≥ 10x\) was not checked: y+…$/u,
    );
  });
});

describe("withHeadToHead", () => {
  it("adds the ratios and never changes the verdict", () => {
    const pair: HeadToHeadResult = {
      suite: "http",
      benchmark: "hello req/s",
      reference: { variant: "python", id: "python/hello req/s" },
      other: { variant: "rust", id: "rust/hello req/s" },
      level: 0.95,
      head: { ratio: 0.1, interval: [0.09, 0.11], rounds: 5 },
      base: { ratio: null, interval: null, rounds: 0, reason: "not measured" },
    };
    const report = makeReport();
    expect(withHeadToHead(report, [])).toBe(report);
    const withPairs = withHeadToHead(report, [pair]);
    expect(withPairs.verdict).toBe("pass");
    expect(withPairs.head_to_head).toEqual([pair]);
  });
});

describe("failureCauses", () => {
  it("names the regressed benchmarks apart from every other kind of failure (C7 accepts only the first)", () => {
    const benchmarks = [
      makeEntry({ id: "parse", verdict: "regressed", change: 0.2 }),
      makeEntry({ id: "lex", verdict: "missing", change: null }),
      makeEntry({ id: "fmt", change: 0 }),
    ];
    const broken = { benchmark: "fmt", rule: "median < 1ms", statistic: "median", ok: false };
    const report = makeReport({ benchmarks, budgets: [broken] });
    expect(failureCauses(report)).toEqual({
      regressions: ["parse"],
      other: ["missing", "budgets"],
    });
    const warnMissing = makeReport({
      benchmarks,
      settings: { ...report.settings, missing: "warn" },
    });
    expect(failureCauses(warnMissing)).toEqual({ regressions: ["parse"], other: [] });
    expect(failureCauses(makeReport())).toEqual({ regressions: [], other: [] });
  });
});

describe("checkConclusion", () => {
  it("V2: an error fails the check even when accepted; inconclusive is neutral; only an accepted fail passes", () => {
    expect(checkConclusion("error", false)).toBe("failure");
    expect(checkConclusion("error", true)).toBe("failure");
    expect(checkConclusion("fail", false)).toBe("failure");
    expect(checkConclusion("fail", true)).toBe("success");
    expect(checkConclusion("inconclusive", false)).toBe("neutral");
    expect(checkConclusion("pass", false)).toBe("success");
  });

  it("V2: with fail-on-inconclusive an inconclusive benchmark is a failure of its own kind, never accepted", () => {
    const benchmarks = [makeEntry({ id: "parse", verdict: "inconclusive", change: 0.05 })];
    const report = makeReport({ benchmarks });
    expect(failureCauses(report).other).toEqual([]);
    const strict = makeReport({
      benchmarks,
      settings: { ...report.settings, fail_on_inconclusive: true },
    });
    expect(failureCauses(strict)).toEqual({ regressions: [], other: ["inconclusive"] });
    expect(verdictOf(strict)).toBe("fail");
  });
});
