// Budgets evaluated against a comparison (docs/budgets-and-golden.md). Pure: the caller passes the report's
// entries (or the report itself) and the head side's summaries; rules come from the base side.
//
// Which number an absolute limit is checked against, always on the **head** side:
// - median: `Entry.head.value`, the median over rounds of each round's sample median (the
//   statistic the gate compares, docs/statistics.md §1).
// - p50, mean, p95, p99: each head round's own estimate from its summary (`estimates.p95` etc.,
//   `{point}` or a number), combined as the **median over rounds**, like `value`: one disturbed
//   round cannot break or rescue a budget. p50 falls back to `Entry.head.value` when no summary
//   reports it; the others fail the rule when no head summary reports them (a budget that
//   cannot be checked must not pass silently).
// - A rate limit ("> 200 MiB/s") on a timed benchmark uses its Criterion throughput
//   (units per iteration / time per iteration), for median and p50 only: a time percentile
//   is not a rate percentile of the same name.
//
// `max_regression` is checked against the *confirmed* change: it fails only when the lower
// bound of the benchmark's confidence interval (report `ci`) is above the allowed regression,
// so noise alone cannot trip it. For bigger-is-better metrics the regression is the slowdown
// base/head − 1 (a 5 % regression is a rate divided by 1.05), the same orientation the gate uses.
import type { BenchSummary, Benchmark } from "../schemas/summary.gen.ts";
import type { BudgetResult, Entry } from "../schemas/report.gen.ts";
import { median } from "../core/statistics.ts";
import { estimatePoint } from "../core/pairing.ts";
import { normalizeUnit } from "../ingest/units.ts";
import {
  type BudgetLimit,
  type BudgetRule,
  type BudgetStatistic,
  describeRule,
  globMatch,
} from "./parse-budget.ts";

export interface BudgetInput {
  /** The report's entries (a `BenchReport` fits). */
  readonly benchmarks: readonly Entry[];
  /** Every head-side summary (one per round); needed for mean/p50/p95/p99 and rate limits. */
  readonly headSummaries?: readonly BenchSummary[];
  /**
   * The run measured a filtered subset (`--filter`, `/rebench <filter>`): a rule that matches
   * nothing then names a benchmark that was not run, not a typo, and is reported unchecked.
   */
  readonly filtered?: boolean;
}

function key(suite: string, id: string): string {
  return `${suite}\u0000${id}`;
}

function indexSummaries(summaries: readonly BenchSummary[]): Map<string, Benchmark[]> {
  const byKey = new Map<string, Benchmark[]>();
  const ordered = [...summaries].sort((a, b) => a.round - b.round);
  for (const summary of ordered) {
    for (const b of summary.benchmarks) {
      const k = key(b.suite, b.id);
      const list = byKey.get(k);
      if (list === undefined) byKey.set(k, [b]);
      else list.push(b);
    }
  }
  return byKey;
}

const SI_TIME: readonly [number, string][] = [
  [1e9, "s"],
  [1e6, "ms"],
  [1e3, "µs"],
  [1, "ns"],
];

/** "31.2 ms", "87 ns", "1.5e+3 B/s" style: three significant digits in a readable unit. */
export function formatQuantity(value: number, unit: string): string {
  if (unit === "ns") {
    const [scale, name] = SI_TIME.find(([s]) => Math.abs(value) >= s) ?? [1, "ns"];
    return `${Number((value / scale).toPrecision(3))} ${name}`;
  }
  return `${Number(value.toPrecision(3))} ${unit}`;
}

function percent(x: number): string {
  return `${Number((x * 100).toPrecision(3))} %`;
}

function compareLimit(actual: number, limit: BudgetLimit): boolean {
  switch (limit.op) {
    case "<":
      return actual < limit.value;
    case "<=":
      return actual <= limit.value;
    case ">":
      return actual > limit.value;
    case ">=":
      return actual >= limit.value;
  }
}

interface Measured {
  readonly value: number;
  readonly unit: string;
  readonly how: string;
}

/** The unit a Criterion throughput turns into when divided by a time, as normalizeUnit names it. */
const THROUGHPUT_RATE_UNITS: Readonly<Record<string, readonly string[]>> = {
  bytes: ["B/s"],
  bits: ["bit/s"],
  elements: ["elements/s", "element/s", "elem/s", "elems/s"],
};

function headStatistic(
  entry: Entry,
  statistic: BudgetStatistic,
  rounds: readonly Benchmark[],
): Measured | string {
  const head = entry.head;
  if (head === null) return "no head measurement (the benchmark is missing on head)";
  const unit = normalizeUnit(entry.unit).unit;
  if (statistic === "median")
    return { value: head.value, unit, how: "median over rounds of the sample median" };
  const points = rounds
    .map((b) => estimatePoint(b.estimates[statistic]))
    .filter((x): x is number => x !== undefined);
  if (points.length > 0)
    return {
      value: median(points),
      unit,
      how: `median over ${points.length} head round${points.length === 1 ? "" : "s"} of ${statistic}`,
    };
  if (statistic === "p50")
    return { value: head.value, unit, how: "median over rounds of the sample median" };
  return `no head summary reports ${statistic} for this benchmark (Criterion reports no percentiles; use median, or a harness that writes ${statistic})`;
}

function asRate(
  measured: Measured,
  limit: BudgetLimit,
  rounds: readonly Benchmark[],
): Measured | string {
  if (measured.unit !== "ns") return measured;
  if (limit.statistic !== "median" && limit.statistic !== "p50")
    return `a rate limit on a timed benchmark is supported for median and p50 only, not ${limit.statistic}`;
  for (const t of rounds[0]?.throughput ?? []) {
    if ((THROUGHPUT_RATE_UNITS[t.kind] ?? []).includes(limit.unit) && measured.value > 0)
      return {
        value: (t.per_iteration * 1e9) / measured.value,
        unit: limit.unit,
        how: `${t.per_iteration} ${t.kind} per iteration / ${measured.how}`,
      };
  }
  return `the benchmark is timed (ns) and reports no ${limit.unit.replace("/s", "")} throughput to turn into ${limit.unit}`;
}

function checkLimit(
  rule: BudgetRule,
  limit: BudgetLimit,
  entry: Entry,
  rounds: readonly Benchmark[],
): BudgetResult {
  const base = {
    benchmark: entry.id,
    rule: `${limit.statistic} ${limit.text}`,
    statistic: limit.statistic,
    limit: limit.value,
    unit: limit.unit,
  };
  let measured = headStatistic(entry, limit.statistic, rounds);
  if (typeof measured !== "string" && limit.kind === "rate")
    measured = asRate(measured, limit, rounds);
  if (typeof measured !== "string" && measured.unit !== limit.unit)
    measured = `the benchmark is measured in ${measured.unit}, the limit in ${limit.unit}`;
  if (typeof measured === "string")
    return {
      ...base,
      actual: null,
      ok: false,
      message: `${describeRule(rule.index, rule.benchmark)}: cannot check: ${measured}`,
    };
  const ok = compareLimit(measured.value, limit);
  const actualText = formatQuantity(measured.value, measured.unit);
  const limitText = `${limit.op} ${formatQuantity(limit.value, limit.unit)}`;
  return {
    ...base,
    actual: measured.value,
    ok,
    message: ok
      ? `${limit.statistic} ${actualText} ${limitText} (${measured.how})`
      : `${limit.statistic} ${actualText} breaks the budget ${limitText} (${measured.how})`,
  };
}

function checkRegression(rule: BudgetRule, allowed: number, entry: Entry): BudgetResult {
  const base = {
    benchmark: entry.id,
    rule: `max_regression ${rule.maxRegressionText ?? percent(allowed)}`,
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
      message: `${describeRule(rule.index, rule.benchmark)}: cannot check: the benchmark is missing on head`,
    };
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
  const interval = `estimate ${percent(estimate)}, CI [${percent(lower)}, ${percent(upper)}]`;
  const caveat = entry.unverified ? "; one run per side, so the interval is within-run only" : "";
  return {
    ...base,
    actual: lower,
    ok,
    message: ok
      ? `${interval}: a regression above ${percent(allowed)} is not confirmed (the gate fails only when the CI's lower bound exceeds it)${caveat}`
      : `confirmed regression above ${percent(allowed)}: ${interval}, lower bound ${percent(lower)} > ${percent(allowed)}${caveat}`,
  };
}

/**
 * Checks every rule against every benchmark whose id its glob matches, in rule order then
 * report order. A rule that matches no benchmark yields one failed result per limit, so a
 * typo cannot silently disable a budget — unless the run was filtered, when it is unchecked.
 */
export function evaluateBudgets(rules: readonly BudgetRule[], input: BudgetInput): BudgetResult[] {
  const rounds = indexSummaries(input.headSummaries ?? []);
  const results: BudgetResult[] = [];
  for (const rule of rules) {
    const matched = input.benchmarks.filter((e) => globMatch(rule.benchmark, e.id));
    if (matched.length === 0) {
      const statistics: { statistic: string; rule: string }[] = rule.limits.map((l) => ({
        statistic: l.statistic,
        rule: `${l.statistic} ${l.text}`,
      }));
      if (rule.maxRegression !== undefined)
        statistics.push({
          statistic: "max_regression",
          rule: `max_regression ${rule.maxRegressionText ?? percent(rule.maxRegression)}`,
        });
      for (const s of statistics)
        results.push({
          benchmark: rule.benchmark,
          rule: s.rule,
          statistic: s.statistic,
          actual: null,
          ok: input.filtered === true,
          message:
            input.filtered === true
              ? `${describeRule(rule.index, rule.benchmark)} not checked: this run was filtered and measured none of its benchmarks`
              : `${describeRule(rule.index, rule.benchmark)} matches no benchmark (of ${input.benchmarks.length}): check the id; \`*\` matches any characters including \`/\``,
        });
      continue;
    }
    for (const entry of matched) {
      const headRounds = rounds.get(key(entry.suite, entry.id)) ?? [];
      for (const limit of rule.limits) results.push(checkLimit(rule, limit, entry, headRounds));
      if (rule.maxRegression !== undefined)
        results.push(checkRegression(rule, rule.maxRegression, entry));
    }
  }
  return results;
}
