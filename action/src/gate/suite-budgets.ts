// The limits suites set on themselves (a load suite's error rate and server growth, its kind's
// `budgetRules`), as budget rules beside the ones under `budgets:`. They are checked on head
// like any budget, so they show in the comment's budget table, and they come from the same
// (base's) benchgate.yml as the suites.
import { parseBudgetRule, type BudgetRule } from "../budgets/parse-budget.ts";
import { suiteKind } from "../config/suites/registry.ts";
import type { BenchgateConfig } from "../schemas/config.gen.ts";

/**
 * The rules every suite sets on itself, numbered after the `budgets:` list's `count` rules (so a
 * rule's number still names one rule), each saying which suite key sets it.
 */
export function suiteBudgetRules(
  document: BenchgateConfig | undefined,
  count: number,
): BudgetRule[] {
  const rules = (document?.suites ?? []).flatMap((s) => suiteKind(s).budgetRules?.(s) ?? []);
  return rules.map(({ rule, origin }, k) => ({ ...parseBudgetRule(rule, count + k), origin }));
}
