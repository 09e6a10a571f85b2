// Folds budget results into a report: a broken budget fails the gate like a confirmed
// regression does (SPEC §3.5), and the reasons say which. Pure: returns a new report.
import type { BenchReport, BudgetResult } from "../schemas/report.gen.ts";

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
