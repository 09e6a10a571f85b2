import { describe, expect, it } from "vitest";
import type { Entry } from "../schemas/report.gen.ts";
import type { BenchSummary, Benchmark } from "../schemas/summary.gen.ts";
import { evaluateBudgets } from "./evaluate-budgets.ts";
import { parseBudgets } from "./parse-budget.ts";

function entry(id: string, over: Partial<Entry> = {}): Entry {
  return {
    id,
    suite: "s",
    source: "criterion",
    unit: "ns",
    direction: "smaller_is_better",
    verdict: "unchanged",
    base: { value: 10e6, per_round: [10e6, 10e6, 10e6] },
    head: { value: 12e6, per_round: [12e6, 11e6, 13e6] },
    change: 0.2,
    ci: [0.02, 0.4],
    p: 0.1,
    q: 0.1,
    rounds: 3,
    mde: 0.1,
    unverified: false,
    notes: [],
    ...over,
  };
}

function summary(round: number, benchmarks: Benchmark[]): BenchSummary {
  return { schema_version: 1, side: "head", round, benchmarks };
}

function bench(
  id: string,
  estimates: Benchmark["estimates"],
  over: Partial<Benchmark> = {},
): Benchmark {
  return {
    id,
    suite: "s",
    source: "custom",
    unit: "ns",
    direction: "smaller_is_better",
    estimates,
    ...over,
  };
}

describe("evaluateBudgets", () => {
  it("passes a median limit written in ms against ns data", () => {
    const rules = parseBudgets([{ benchmark: "cli/help", median: "< 20ms" }]);
    const [r] = evaluateBudgets(rules, { benchmarks: [entry("cli/help")] });
    expect(r).toMatchObject({
      ok: true,
      benchmark: "cli/help",
      statistic: "median",
      limit: 20e6,
      actual: 12e6,
      unit: "ns",
      rule: "median < 20ms",
    });
  });

  it("fails an absolute breach and says by how much in readable units", () => {
    const rules = parseBudgets([{ benchmark: "cli/help", median: "< 10ms" }]);
    const [r] = evaluateBudgets(rules, { benchmarks: [entry("cli/help")] });
    expect(r?.ok).toBe(false);
    expect(r?.message).toContain("12 ms breaks the budget < 10 ms");
  });

  it("nanosecond budgets on nanosecond data", () => {
    const rules = parseBudgets([{ benchmark: "fmt/*", median: "< 100ns" }]);
    const e = entry("fmt/explicit", { head: { value: 39, per_round: [39] } });
    expect(evaluateBudgets(rules, { benchmarks: [e] })[0]?.ok).toBe(true);
    const slow = entry("fmt/explicit", { head: { value: 130, per_round: [130] } });
    expect(evaluateBudgets(rules, { benchmarks: [slow] })[0]?.ok).toBe(false);
  });

  it("takes p95/p99 from head summaries as the median over rounds", () => {
    const rules = parseBudgets([{ benchmark: "archive/*", p95: "< 25ms", p99: "< 30ms" }]);
    const id = "archive/write";
    const headSummaries = [
      summary(1, [bench(id, { p95: 11e6, p99: { point: 12e6 } })]),
      summary(2, [bench(id, { p95: 40e6, p99: 50e6 })]), // one disturbed round
      summary(3, [bench(id, { p95: 12e6, p99: 31e6 })]),
    ];
    const results = evaluateBudgets(rules, { benchmarks: [entry(id)], headSummaries });
    expect(results.map((r) => [r.statistic, r.actual, r.ok])).toEqual([
      ["p95", 12e6, true],
      ["p99", 31e6, false],
    ]);
    expect(results[0]?.message).toContain("median over 3 head rounds of p95");
  });

  it("fails when no summary reports the statistic", () => {
    const rules = parseBudgets([{ benchmark: "a", p95: "< 25ms" }]);
    const [r] = evaluateBudgets(rules, { benchmarks: [entry("a")], headSummaries: [] });
    expect(r).toMatchObject({ ok: false, actual: null });
    expect(r?.message).toMatch(/no head summary reports p95/);
  });

  it("max_regression passes when the CI lower bound is below the limit, even with a larger estimate", () => {
    const rules = parseBudgets([{ benchmark: "a", max_regression: "5%" }]);
    const [r] = evaluateBudgets(rules, {
      benchmarks: [entry("a", { change: 0.2, ci: [0.02, 0.4] })],
    });
    expect(r).toMatchObject({ ok: true, statistic: "max_regression", limit: 0.05, actual: 0.02 });
    expect(r?.message).toMatch(/not confirmed/);
    expect(r?.message).toMatch(/lower bound/);
  });

  it("max_regression fails when the CI lower bound is above the limit", () => {
    const rules = parseBudgets([{ benchmark: "a", max_regression: "5%" }]);
    const [r] = evaluateBudgets(rules, {
      benchmarks: [entry("a", { change: 0.2, ci: [0.08, 0.3] })],
    });
    expect(r?.ok).toBe(false);
    expect(r?.message).toMatch(/confirmed regression above 5 %/);
  });

  it("max_regression on a rate counts a drop as a regression", () => {
    const rules = parseBudgets([{ benchmark: "tp", max_regression: "5%" }]);
    const e = entry("tp", {
      unit: "B/s",
      direction: "bigger_is_better",
      change: -0.2,
      ci: [-0.3, -0.1],
    });
    const [r] = evaluateBudgets(rules, { benchmarks: [e] });
    expect(r?.ok).toBe(false);
    expect(r?.actual).toBeCloseTo(1 / 0.9 - 1);
  });

  it("rate limits on timed benchmarks use the Criterion throughput", () => {
    const rules = parseBudgets([{ benchmark: "parse", median: "> 100 MiB/s" }]);
    const e = entry("parse", { head: { value: 1e6, per_round: [1e6] } }); // 1 ms per iteration
    const headSummaries = [
      summary(1, [
        bench(
          "parse",
          {},
          { throughput: [{ kind: "bytes", per_iteration: (200 * 1024 * 1024) / 1000 }] },
        ),
      ]),
    ];
    const [r] = evaluateBudgets(rules, { benchmarks: [e], headSummaries });
    expect(r?.ok).toBe(true);
    expect(r?.actual).toBeCloseTo(200 * 1024 * 1024);
    const [none] = evaluateBudgets(rules, { benchmarks: [e] });
    expect(none?.ok).toBe(false);
  });

  it("glob * matches across / and a rule matching nothing fails", () => {
    const rules = parseBudgets([
      { benchmark: "group/*", median: "< 1s" },
      { benchmark: "grup/*", median: "< 1s", max_regression: "5%" },
    ]);
    const results = evaluateBudgets(rules, {
      benchmarks: [entry("group/fn/1"), entry("group/fn/2"), entry("other")],
    });
    expect(results.filter((r) => r.ok).map((r) => r.benchmark)).toEqual([
      "group/fn/1",
      "group/fn/2",
    ]);
    const failed = results.filter((r) => !r.ok);
    expect(failed.map((r) => r.statistic)).toEqual(["median", "max_regression"]);
    expect(failed[0]?.message).toMatch(/budget rule 2 \("grup\/\*"\) matches no benchmark/);
    // In a filtered run (/rebench group/fn/1) the rule names benchmarks that were not run.
    const filtered = evaluateBudgets(rules, { benchmarks: [entry("group/fn/1")], filtered: true });
    expect(filtered.every((r) => r.ok)).toBe(true);
    expect(filtered.at(-1)?.message).toMatch(/not checked: this run was filtered/);
  });

  it("a result that checked nothing has no actual value, and only such a result", () => {
    // The comment shows these as not checked, never as met (render/budget-state.ts): a filtered
    // run's rule whose benchmarks did not run, max_regression of a new benchmark or of a
    // comparison without an interval. None of them fails the gate.
    const rules = parseBudgets([
      { benchmark: "kept", median: "< 1s", max_regression: "5%" },
      { benchmark: "not-run", median: "< 1s" },
      { benchmark: "new", max_regression: "5%" },
      { benchmark: "no-ci", max_regression: "5%" },
    ]);
    const results = evaluateBudgets(rules, {
      benchmarks: [
        entry("kept"),
        entry("new", { base: null, change: null, ci: null, verdict: "new" }),
        entry("no-ci", { ci: null, verdict: "inconclusive" }),
      ],
      filtered: true,
    });
    expect(results.map((r) => [r.benchmark, r.statistic, r.ok, r.actual])).toEqual([
      ["kept", "median", true, 12e6],
      ["kept", "max_regression", true, 0.02],
      ["not-run", "median", true, null],
      ["new", "max_regression", true, null],
      ["no-ci", "max_regression", true, null],
    ]);
    expect(results.slice(2).map((r) => r.message)).toEqual([
      'budget rule 2 ("not-run") not checked: this run was filtered and measured none of its benchmarks',
      "new on head: no base to regress from",
      "not checked: this comparison has no confidence interval for the change",
    ]);
  });

  it("a benchmark missing on head fails its absolute budget; a new one skips max_regression", () => {
    const rules = parseBudgets([{ benchmark: "*", median: "< 1s", max_regression: "5%" }]);
    const results = evaluateBudgets(rules, {
      benchmarks: [
        entry("gone", { head: null, change: null, ci: null, verdict: "missing" }),
        entry("new", { base: null, change: null, ci: null, verdict: "new" }),
      ],
    });
    expect(results.map((r) => [r.benchmark, r.statistic, r.ok])).toEqual([
      ["gone", "median", false],
      ["gone", "max_regression", false],
      ["new", "median", true],
      ["new", "max_regression", true],
    ]);
  });
});
