// What one budget result says, as the comment and the terminal show it. A result that holds no
// measured value checked nothing: a filtered run that did not measure the rule's benchmarks,
// max_regression of a benchmark new on head or of a comparison without an interval. It does not
// fail the gate (budgets/evaluate-budgets.ts decides that, in `ok`), but it is never counted or
// shown as met: "✅" would say a limit held that nobody looked at. Pure.
import type { BudgetResult } from "../schemas/report.gen.ts";

type BudgetState = "broken" | "close" | "met" | "unchecked";

export function budgetState(b: BudgetResult): BudgetState {
  if (!b.ok) return "broken";
  if (b.close === true) return "close";
  return b.actual === null || b.actual === undefined ? "unchecked" : "met";
}

/** The budgets of each state, in the order they are listed: failures first, met last. */
export function budgetsByState(
  budgets: readonly BudgetResult[],
): Readonly<Record<BudgetState, readonly BudgetResult[]>> {
  const of = (state: BudgetState): BudgetResult[] =>
    budgets.filter((b) => budgetState(b) === state);
  return { broken: of("broken"), close: of("close"), unchecked: of("unchecked"), met: of("met") };
}

/** "2 of 5 met, 1 close, 2 not checked", or "all 5 met". */
export function budgetCountLine(
  budgets: readonly BudgetResult[],
  formatCount: (n: number) => string,
): string {
  const s = budgetsByState(budgets);
  const total = budgets.length;
  const met =
    s.met.length === total
      ? `all ${formatCount(total)}`
      : `${formatCount(s.met.length)} of ${formatCount(total)}`;
  const close = s.close.length === 0 ? "" : `, ${formatCount(s.close.length)} close`;
  const unchecked =
    s.unchecked.length === 0 ? "" : `, ${formatCount(s.unchecked.length)} not checked`;
  return `${met} met${close}${unchecked}`;
}
