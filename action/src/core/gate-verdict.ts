// Folds budget and golden results into a report: a broken budget or a changed golden output fails
// the gate like a confirmed regression does (docs/budgets-and-golden.md), and the reasons say which. Pure: returns
// a new report.
import type { CheckConclusion } from "../ports/github.ts";
import type { BenchReport, BudgetResult, GoldenResult } from "../schemas/report.gen.ts";

export function withBudgets(report: BenchReport, budgets: readonly BudgetResult[]): BenchReport {
  if (budgets.length === 0) return report;
  const broken = budgets.filter((b) => !b.ok).length;
  const reasons = [...report.reasons];
  if (broken > 0) {
    reasons.push(
      `${broken} of ${budgets.length} budget check${budgets.length === 1 ? "" : "s"} broken`,
    );
  }
  return {
    ...report,
    verdict: broken > 0 ? "fail" : report.verdict,
    reasons,
    budgets: [...budgets],
  };
}

/** Folds golden results into a report: a changed or missing golden output fails the gate. */
export function withGolden(report: BenchReport, golden: readonly GoldenResult[]): BenchReport {
  if (golden.length === 0) return report;
  const failed = golden.filter((g) => !g.ok);
  const reasons = [...report.reasons];
  if (failed.length > 0) {
    const names = failed.slice(0, 5).map((g) => g.name);
    const more = failed.length > 5 ? ` and ${failed.length - 5} more` : "";
    reasons.push(
      `golden output${failed.length === 1 ? "" : "s"} changed: ${names.join(", ")}${more}`,
    );
  }
  return {
    ...report,
    verdict: failed.length > 0 ? "fail" : report.verdict,
    reasons,
    golden: [...golden],
  };
}

/**
 * The one place a verdict becomes a check run's conclusion.
 * A failed gate fails the check unless a maintainer accepted this head commit's result; an error
 * (no comparison) always fails it, so it can never pass by not running; an inconclusive result
 * is neutral (with fail-on-inconclusive the verdict is already "fail").
 */
export function checkConclusion(
  verdict: BenchReport["verdict"],
  accepted: boolean,
): CheckConclusion {
  if (verdict === "fail") return accepted ? "success" : "failure";
  if (verdict === "error") return "failure";
  if (verdict === "inconclusive") return "neutral";
  return "success";
}
