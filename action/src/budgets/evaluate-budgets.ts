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
// - A count limit (`instructions: "< 2.5M"`, ./count-limit.ts) checks `Entry.head.value` of the
//   entries whose `metric` is its key; for an exact count every head round read that value.
//
// Which entries a key checks, among those the glob matches: time and rate limits the entries
// without a count `metric`, and a percentile limit also those whose metric is that percentile
// (a load test's secondary `E p95`, checked on its own value); a count limit those of its metric; max_regression every entry but
// the secondary counts (cache hits, bytes allocated, … beside a benchmark's instructions, which
// never fail the gate by their change and are reached by their metric's key). A secondary
// count's id is `<benchmark id> [<metric>]`; the glob matches it with or without that suffix.
//
// `max_regression` is checked against the *confirmed* change (./max-regression.ts).
//
// With a close band (`warn: "20%"`, ./close-band.ts) a time, rate or count limit that the head
// value breaks by less than the band is reported close (`close: true`, still ok); max_regression
// has no band.
import type { BenchSummary, Benchmark } from "../schemas/summary.gen.ts";
import type { BudgetResult, Entry } from "../schemas/report.gen.ts";
import { median } from "../core/statistics.ts";
import { estimatePoint } from "../core/pairing.ts";
import { normalizeUnit } from "../ingest/units.ts";
import {
  type BudgetLimit,
  type BudgetRule,
  type BudgetStatistic,
  describeBudget,
  globMatch,
} from "./parse-budget.ts";
import { checkCount } from "./count-limit.ts";
import { bandOf, closeBy, closeText, type CloseBand } from "./close-band.ts";
import { checkRegression, maxRegressionRule } from "./max-regression.ts";

interface BudgetInput {
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
function formatQuantity(value: number, unit: string): string {
  if (unit === "ns") {
    const [scale, name] = SI_TIME.find(([s]) => Math.abs(value) >= s) ?? [1, "ns"];
    return `${Number((value / scale).toPrecision(3))} ${name}`;
  }
  return `${Number(value.toPrecision(3))} ${unit}`;
}

function compareLimit(actual: number, limit: Pick<BudgetLimit, "op" | "value">): boolean {
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
  // An entry that is itself this statistic (a load test's `E p95`, metric p95): its own value.
  if (entry.metric === statistic)
    return { value: head.value, unit, how: `median over head rounds of the ${statistic}` };
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
  band: CloseBand | undefined,
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
      message: `${describeBudget(rule)}: cannot check: ${measured}`,
    };
  const ok = compareLimit(measured.value, limit);
  const actualText = formatQuantity(measured.value, measured.unit);
  const limitText = `${limit.op} ${formatQuantity(limit.value, limit.unit)}`;
  const close = ok ? undefined : closeBy(measured.value, limit.op, limit.value, band);
  if (close !== undefined && band !== undefined)
    return {
      ...base,
      actual: measured.value,
      ok: true,
      close: true,
      message: `${limit.statistic} ${actualText} is close to the budget ${limitText}: ${closeText(close, band)} (${measured.how})`,
    };
  return {
    ...base,
    actual: measured.value,
    ok,
    message: ok
      ? `${limit.statistic} ${actualText} ${limitText} (${measured.how})`
      : `${limit.statistic} ${actualText} breaks the budget ${limitText}${band === undefined ? "" : `, past its close band of ${band.text}`} (${measured.how})`,
  };
}

/** The id a secondary count answers to besides its own: its benchmark's, without ` [metric]`. */
function benchmarkIdOf(entry: Entry): string | undefined {
  if (entry.secondary !== true || entry.metric === undefined) return undefined;
  const suffix = ` [${entry.metric}]`;
  return entry.id.endsWith(suffix) ? entry.id.slice(0, -suffix.length) : undefined;
}

function ruleMatches(rule: BudgetRule, entry: Entry): boolean {
  if (globMatch(rule.benchmark, entry.id)) return true;
  const id = benchmarkIdOf(entry);
  return id !== undefined && globMatch(rule.benchmark, id);
}

/** One key of a rule: which matched entries it checks, how, and what to say when it checks none. */
interface Check {
  readonly statistic: string;
  readonly rule: string;
  applies(entry: Entry): boolean;
  check(entry: Entry): BudgetResult;
  /** Why none of `matched` (at least one) is for this key. */
  none(matched: readonly Entry[]): string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** "instructions, total_bytes and 3 more", "times or rates": what the matched entries measure. */
function metricsOf(entries: readonly Entry[]): string {
  const metrics = [...new Set(entries.map((e) => e.metric ?? "times or rates"))];
  const shown = metrics.slice(0, 5).join(", ");
  return metrics.length > 5 ? `${shown} and ${metrics.length - 5} more` : shown;
}

function checksOf(
  rule: BudgetRule,
  input: BudgetInput,
  rounds: ReadonlyMap<string, Benchmark[]>,
): Check[] {
  const band = bandOf(rule);
  const checks: Check[] = rule.limits.map((limit) => ({
    statistic: limit.statistic,
    rule: `${limit.statistic} ${limit.text}`,
    applies: (e) => e.metric === undefined || e.metric === limit.statistic,
    check: (e) => checkLimit(rule, limit, e, rounds.get(key(e.suite, e.id)) ?? [], band),
    none: (matched) =>
      `the ${plural(matched.length, "benchmark")} it matches ${matched.length === 1 ? "is a count" : "are counts"} (${metricsOf(matched)}): a count's limit goes under its metric, e.g. ${matched[0]?.metric ?? "instructions"}: "< 2.5M"`,
  }));
  for (const limit of rule.counts)
    checks.push({
      statistic: limit.metric,
      rule: `${limit.metric} ${limit.text}`,
      applies: (e) => e.metric === limit.metric,
      check: (e) => checkCount(limit, e, describeBudget(rule), band),
      none: (matched) => {
        const anywhere = input.benchmarks.some((e) => e.metric === limit.metric);
        return `none of the ${plural(matched.length, "benchmark")} it matches counts ${limit.metric} (they measure ${metricsOf(matched)})${anywhere ? "" : `, and no benchmark in this report does: check the key`}`;
      },
    });
  const allowed = rule.maxRegression;
  if (allowed !== undefined)
    checks.push({
      statistic: "max_regression",
      rule: maxRegressionRule(rule, allowed),
      applies: (e) => e.secondary !== true,
      check: (e) => checkRegression(rule, allowed, e),
      none: (matched) =>
        `the ${plural(matched.length, "benchmark")} it matches ${matched.length === 1 ? "is a secondary count" : "are secondary counts"} (${metricsOf(matched)}), which max-regression does not check: give ${matched.length === 1 ? "it" : "them"} a limit under ${matched.length === 1 ? "its" : "their"} metric`,
    });
  return checks;
}

/** The benchgate.yml key a check's messages name; report.json keeps "max_regression" as its statistic. */
function keyOf(statistic: string): string {
  return statistic === "max_regression" ? "max-regression" : statistic;
}

/**
 * Checks every rule against every benchmark whose id its glob matches, in rule order then
 * report order. A rule that matches no benchmark yields one failed result per limit, so a
 * typo cannot silently disable a budget — unless the run was filtered, when it is unchecked.
 * So does a key that checks none of the benchmarks the rule matches (a misspelt metric).
 * A result carries the number it checked in `actual`; one that checked nothing (unchecked in a
 * filtered run, max_regression with no base or no interval) has `actual: null`, and is shown as
 * not checked, never as met (render/budget-state.ts).
 */
export function evaluateBudgets(rules: readonly BudgetRule[], input: BudgetInput): BudgetResult[] {
  const rounds = indexSummaries(input.headSummaries ?? []);
  const results: BudgetResult[] = [];
  const filtered = input.filtered === true;
  for (const rule of rules) {
    const checks = checksOf(rule, input, rounds);
    const matched = input.benchmarks.filter((e) => ruleMatches(rule, e));
    const unmatched = (check: Check, why: string): BudgetResult => ({
      benchmark: rule.benchmark,
      rule: check.rule,
      statistic: check.statistic,
      actual: null,
      ok: filtered,
      message: `${describeBudget(rule)}${why}`,
    });
    if (matched.length === 0) {
      for (const check of checks)
        results.push(
          unmatched(
            check,
            filtered
              ? " not checked: this run was filtered and measured none of its benchmarks"
              : ` matches no benchmark (of ${input.benchmarks.length}): check the id; \`*\` matches any characters including \`/\``,
          ),
        );
      continue;
    }
    const used = new Set<Check>();
    for (const entry of matched)
      for (const check of checks)
        if (check.applies(entry)) {
          used.add(check);
          results.push(check.check(entry));
        }
    for (const check of checks)
      if (!used.has(check))
        results.push(
          unmatched(
            check,
            filtered
              ? `: ${keyOf(check.statistic)} not checked: this run was filtered and measured none of the benchmarks it is for`
              : `: ${keyOf(check.statistic)}: ${check.none(matched)}`,
          ),
        );
  }
  return results;
}
