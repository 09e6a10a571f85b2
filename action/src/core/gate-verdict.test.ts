import { describe, expect, it } from "vitest";
import { checkConclusion, failureCauses, verdictOf, withBudgets } from "./gate-verdict.ts";
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
