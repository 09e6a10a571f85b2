import { describe, expect, it } from "vitest";
import { withBudgets } from "./gate-verdict.ts";
import { makeReport } from "../../test/support/report-factory.ts";

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
