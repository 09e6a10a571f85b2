// `max-regression` (docs/budgets-and-golden.md): the largest regression a benchmark may show,
// checked against the *confirmed* change. For a measured change it fails only when the lower
// bound of the benchmark's confidence interval (report `ci`) is above the allowed regression, so
// noise alone cannot trip it. For bigger-is-better metrics the regression is the slowdown
// base/head − 1 (a 5 % regression is a rate divided by 1.05), the same orientation the gate
// uses. An exact count (instructions under Valgrind, decided on its count threshold) has a known
// change, its interval [change, change]: the change itself is checked. Pure.
import { formatChange } from "../render/format.ts";
import type { BudgetResult, Entry } from "../schemas/report.gen.ts";
import { formatCount } from "./count-limit.ts";
import { type BudgetRule, describeBudget } from "./parse-budget.ts";

/** Floating-point slack when an exact count's change meets the allowed regression (core/counts.ts). */
const SLACK = 1e-9;

/** The allowed regression as a setting: "5 %", "0.5 %", three significant digits. */
function percent(x: number): string {
  return `${Number((x * 100).toPrecision(3))} %`;
}

/** The rule text of a max-regression result, e.g. "max-regression 5%". */
export function maxRegressionRule(rule: BudgetRule, allowed: number): string {
  return `max-regression ${rule.maxRegressionText ?? percent(allowed)}`;
}

/** Decided on its count threshold: the change is exact, its interval a point. */
function isExactCount(entry: Entry): boolean {
  return entry.determinism !== undefined && entry.determinism.status !== "non-deterministic";
}

export function checkRegression(rule: BudgetRule, allowed: number, entry: Entry): BudgetResult {
  const base = {
    benchmark: entry.id,
    rule: maxRegressionRule(rule, allowed),
    statistic: "max_regression",
    limit: allowed,
    unit: "fraction",
  };
  if (entry.base === null)
    return { ...base, actual: null, ok: true, message: "new on head: no base to regress from" };
  if (entry.head === null)
    return {
      ...base,
      actual: null,
      ok: false,
      message: `${describeBudget(rule)}: cannot check: the benchmark is missing on head`,
    };
  if (isExactCount(entry))
    return checkExactRegression(base, allowed, entry, entry.base, entry.head);
  if (entry.ci === null || entry.change === null)
    return {
      ...base,
      actual: null,
      ok: true,
      message: "not checked: this comparison has no confidence interval for the change",
    };
  // Regression-oriented interval: for times the change itself; for rates base/head − 1.
  const [lo, hi] = entry.ci;
  const slowdown = (c: number): number =>
    entry.direction === "smaller_is_better" ? c : 1 / (1 + c) - 1;
  const lower = Math.min(slowdown(lo), slowdown(hi));
  const upper = Math.max(slowdown(lo), slowdown(hi));
  const estimate = slowdown(entry.change);
  const ok = !(lower > allowed);
  // Measured values in the comment's formatter: a bound of +2221873 % reads ×22,000.
  const interval = `estimate ${formatChange(estimate)}, CI [${formatChange(lower)}, ${formatChange(upper)}]`;
  const caveat = entry.unverified ? "; one run per side, so the interval is within-run only" : "";
  return {
    ...base,
    actual: lower,
    ok,
    message: ok
      ? `${interval}: a regression above ${percent(allowed)} is not confirmed (the gate fails only when the CI's lower bound exceeds it)${caveat}`
      : `confirmed regression above ${percent(allowed)}: ${interval}, lower bound ${formatChange(lower)} > ${percent(allowed)}${caveat}`,
  };
}

/** max_regression on an exact count: no interval to wait for, the change is the regression. */
function checkExactRegression(
  base: Omit<BudgetResult, "ok" | "actual" | "message">,
  allowed: number,
  entry: Entry,
  from: NonNullable<Entry["base"]>,
  to: NonNullable<Entry["head"]>,
): BudgetResult {
  const caveat =
    entry.determinism?.status === "unchecked"
      ? "; one round on a side, so whether the count repeats was not checked"
      : "";
  const counted = `${formatCount(from.value)} → ${formatCount(to.value)} ${entry.unit}`;
  const worse =
    entry.direction === "smaller_is_better" ? to.value > from.value : to.value < from.value;
  if (entry.change === null) {
    // A count that appears from 0 (or, bigger-is-better, vanishes) has no relative change. One
    // that did not get worse was checked all the same: its regression is 0 (0 → 0) or −100 %
    // (bigger-is-better, from 0 to more), and `actual` says so (a null one means unchecked).
    return {
      ...base,
      actual: worse ? null : to.value === from.value ? 0 : -1,
      ok: !worse,
      message: worse
        ? `exact count ${counted}: a regression no percentage bounds${caveat}`
        : `exact count ${counted}: not a regression${caveat}`,
    };
  }
  const regression =
    entry.direction === "smaller_is_better" ? entry.change : 1 / (1 + entry.change) - 1;
  // 100 000 → 105 000 is 0.050000000000000044 in floating point, and exactly 5 %.
  const ok = !(regression > allowed + SLACK);
  return {
    ...base,
    actual: regression,
    ok,
    message: ok
      ? `exact count ${counted} (${formatChange(regression)}): within ${percent(allowed)}${caveat}`
      : `exact count ${counted}: a regression of ${formatChange(regression)}, above ${percent(allowed)}${caveat}`,
  };
}
