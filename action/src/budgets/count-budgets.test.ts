// Budgets on counts evaluated over report entries made from real gungraun 0.20 output
// (test/fixtures/gungraun-0.20: run-1 and run-2 of one crate, identical counts): the base's rounds
// are run-1 and run-2, and so are the head's unless a test changes a count.
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Entry } from "../schemas/report.gen.ts";
import { parseGungraunSummary } from "../ingest/gungraun/gungraun-summary.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { evaluateBudgets } from "./evaluate-budgets.ts";
import { parseBudgets } from "./parse-budget.ts";

const SUMS = "../../test/fixtures/gungraun-0.20/run-N/tiny-gungraun/sum/sums";
const BENCHES = ["bench_collect.collect_1000", "bench_sum.large", "bench_sum.small"];
const COLLECT = "sum::sums::bench_collect collect_1000";
const LARGE = "sum::sums::bench_sum large";

function countsOf(
  run: 1 | 2,
): Map<string, { metric: string; unit: string; value: number; secondary: boolean }> {
  const counts = new Map<
    string,
    { metric: string; unit: string; value: number; secondary: boolean }
  >();
  for (const bench of BENCHES) {
    const file = new URL(
      `${SUMS.replace("run-N", `run-${run}`)}/${bench}/summary.json`,
      import.meta.url,
    );
    const summary = parseGungraunSummary(
      JSON.parse(readFileSync(file, "utf8")),
      file.pathname,
      "sum",
    );
    for (const b of summary.benchmarks)
      counts.set(b.id, {
        metric: b.metric ?? "",
        unit: b.unit,
        value: b.samples?.[0] ?? Number.NaN,
        secondary: b.secondary === true,
      });
  }
  return counts;
}

const RUN_1 = countsOf(1);
const RUN_2 = countsOf(2);

/** The report entries of the fixture; `head` replaces a head count (both rounds) by id. */
function fixtureEntries(head: ReadonlyMap<string, number> = new Map()): Entry[] {
  return [...RUN_1].map(([id, c]) => {
    const base = [c.value, RUN_2.get(id)?.value ?? Number.NaN];
    const h = head.get(id);
    const heads = h === undefined ? base : [h, h];
    const change = (heads[0] as number) / (base[0] as number) - 1;
    return makeEntry({
      id,
      suite: "sum",
      source: "gungraun",
      unit: c.unit,
      metric: c.metric,
      ...(c.secondary ? { secondary: true } : {}),
      determinism: {
        status: "deterministic",
        spread: { base: 0, head: 0 },
        threshold: 0.01,
        noise_floor: 0.001,
      },
      base: { value: base[0] as number, per_round: base },
      head: { value: heads[0] as number, per_round: heads },
      change: Number.isFinite(change) ? change : null,
      ci: Number.isFinite(change) ? [change, change] : null,
      p: null,
      q: null,
      rounds: 2,
      mde: Math.log1p(0.01),
    });
  });
}

function evaluate(rules: unknown[], benchmarks: Entry[] = fixtureEntries(), filtered = false) {
  return evaluateBudgets(parseBudgets(rules), { benchmarks, filtered });
}

describe("budgets on counts", () => {
  it("the fixture holds what these tests rely on", () => {
    expect(RUN_1.get(COLLECT)).toMatchObject({
      metric: "instructions",
      value: 2275,
      secondary: false,
    });
    expect(RUN_1.get(`${COLLECT} [total_bytes]`)).toMatchObject({
      unit: "B",
      value: 8000,
      secondary: true,
    });
    expect(RUN_1.get(LARGE)?.value).toBe(90015);
    expect([...RUN_1].map(([id, c]) => [id, c.value])).toEqual(
      [...RUN_2].map(([id, c]) => [id, c.value]),
    );
  });

  it("a count key checks its metric's entries, primary and secondary, by the benchmark's id", () => {
    const results = evaluate([
      { benchmark: "sum::sums::bench_collect *", instructions: "< 100k", total_bytes: "< 8 KiB" },
    ]);
    expect(results).toEqual([
      {
        benchmark: COLLECT,
        rule: "instructions < 100k",
        statistic: "instructions",
        limit: 100_000,
        unit: "instructions",
        actual: 2275,
        ok: true,
        message: "instructions 2,275 < 100,000 instructions (the same in all 2 head rounds)",
      },
      {
        benchmark: `${COLLECT} [total_bytes]`,
        rule: "total_bytes < 8 KiB",
        statistic: "total_bytes",
        limit: 8192,
        unit: "B",
        actual: 8000,
        ok: true,
        message: "total_bytes 8,000 < 8,192 B (the same in all 2 head rounds)",
      },
    ]);
  });

  it("one glob reaches every benchmark's count of the metric; the secondary's own id works too", () => {
    const all = evaluate([{ benchmark: "sum::*", instructions: "< 100k" }]);
    expect(all.map((r) => [r.benchmark, r.actual, r.ok])).toEqual([
      [COLLECT, 2275, true],
      [LARGE, 90015, true],
      ["sum::sums::bench_sum small", 915, true],
    ]);
    const own = evaluate([{ benchmark: `${COLLECT} [total_bytes]`, total_bytes: "<= 8000" }]);
    expect(own.map((r) => [r.benchmark, r.ok])).toEqual([[`${COLLECT} [total_bytes]`, true]]);
  });

  it.each([
    [LARGE, "instructions", "< 90015", false],
    [LARGE, "instructions", "<= 90015", true],
    [LARGE, "instructions", "< 90016", true],
    [LARGE, "instructions", "< 90k", false],
    [COLLECT, "total_bytes", "< 8000", false],
    [COLLECT, "total_bytes", "<= 8000", true],
    [COLLECT, "total_bytes", "< 8 kB", false],
    [COLLECT, "total_bytes", "<= 8 kB", true],
    [COLLECT, "total_bytes", "<= 8k bytes", true],
    [COLLECT, "ll_hits", "< 1", true],
    [COLLECT, "ll_hits", "< 0", false],
  ])("%s %s %s → ok %s (exact boundaries)", (benchmark, metric, limit, ok) => {
    const [result, ...rest] = evaluate([{ benchmark, [metric]: limit }]);
    expect(rest).toEqual([]);
    expect(result?.ok).toBe(ok);
    expect(result?.message).toContain(ok ? `${metric} ` : `breaks the budget`);
  });

  it("a broken count budget says by how much in the metric's unit", () => {
    const [result] = evaluate([{ benchmark: LARGE, instructions: "< 90k instructions" }]);
    expect(result?.message).toBe(
      "instructions 90,015 breaks the budget < 90,000 instructions (the same in all 2 head rounds)",
    );
  });

  it("a unit in the limit must be the metric's", () => {
    const results = evaluate([
      {
        benchmark: COLLECT,
        l1_hits: "< 10k hits",
        instructions: "< 1M instr",
        total_bytes: "< 10k hits",
      },
    ]);
    expect(results.map((r) => [r.statistic, r.ok, r.actual])).toEqual([
      ["instructions", true, 2275],
      ["l1_hits", true, 2732],
      ["total_bytes", false, null],
    ]);
    expect(results[2]?.message).toBe(
      `budget rule 1 ("${COLLECT}"): cannot check: total_bytes is counted in B, the limit in hits`,
    );
  });

  it("a misspelt metric fails, naming what the matched benchmarks measure", () => {
    const [typo, elsewhere] = evaluate([
      { benchmark: COLLECT, instrutions: "< 1M" },
      { benchmark: "sum::sums::bench_sum small", total_bytes: "< 1M" },
    ]);
    expect(typo).toMatchObject({
      benchmark: COLLECT,
      statistic: "instrutions",
      ok: false,
      actual: null,
    });
    expect(typo?.message).toBe(
      `budget rule 1 ("${COLLECT}"): instrutions: none of the 14 benchmarks it matches counts instrutions (they measure instructions, estimated_cycles, l1_hits, ll_hits, ram_hits and 9 more), and no benchmark in this report does: check the key`,
    );
    // bench_sum has no DHAT profile: its rule names a real metric that it does not measure.
    expect(elsewhere?.ok).toBe(false);
    expect(elsewhere?.message).toContain("none of the 6 benchmarks it matches counts total_bytes");
    expect(elsewhere?.message).not.toContain("check the key");
  });

  it("a glob matching nothing fails every key; a filtered run leaves it and a missing metric unchecked", () => {
    const rules = [
      { benchmark: "sum::sumz::*", instructions: "< 1M", max_regression: "1%" },
      { benchmark: "sum::sums::bench_sum small", total_bytes: "< 1M" },
    ];
    const full = evaluate(rules);
    expect(full.map((r) => [r.statistic, r.ok])).toEqual([
      ["instructions", false],
      ["max_regression", false],
      ["total_bytes", false],
    ]);
    expect(full[0]?.message).toMatch(
      /budget rule 1 \("sum::sumz::\*"\) matches no benchmark \(of 26\)/,
    );
    const filtered = evaluate(rules, fixtureEntries(), true);
    expect(filtered.map((r) => [r.statistic, r.ok])).toEqual([
      ["instructions", true],
      ["max_regression", true],
      ["total_bytes", true],
    ]);
    expect(filtered[2]?.message).toContain("total_bytes not checked: this run was filtered");
  });

  it("time statistics skip counts; on counts alone they fail and point at the metric key", () => {
    const timed = makeEntry({ id: "parse/large", head: { value: 2e6, per_round: [2e6] } });
    const results = evaluate(
      [
        { benchmark: "*", median: "< 1s" },
        { benchmark: LARGE, median: "< 1ms" },
      ],
      [timed, ...fixtureEntries()],
    );
    expect(results.map((r) => [r.benchmark, r.statistic, r.ok])).toEqual([
      ["parse/large", "median", true],
      [LARGE, "median", false],
    ]);
    expect(results[1]?.message).toBe(
      `budget rule 2 ("${LARGE}"): median: the 6 benchmarks it matches are counts (instructions, estimated_cycles, l1_hits, ll_hits, ram_hits and 1 more): a count's limit goes under its metric, e.g. instructions: "< 2.5M"`,
    );
  });

  it("max_regression checks an exact count's change on primary entries only", () => {
    // bench_sum large: 90 015 → 92 715 instructions, +3 %; its cache hits move too.
    const head = new Map([
      [LARGE, 92_715],
      [`${LARGE} [l1_hits]`, 200_000],
    ]);
    const results = evaluate(
      [
        { benchmark: LARGE, max_regression: "5%" },
        { benchmark: LARGE, max_regression: "2%" },
      ],
      fixtureEntries(head),
    );
    expect(results.map((r) => [r.benchmark, r.ok])).toEqual([
      [LARGE, true],
      [LARGE, false],
    ]);
    expect(results[0]?.actual).toBe(92_715 / 90_015 - 1);
    expect(results[0]?.message).toBe(
      "exact count 90,015 → 92,715 instructions (+3.0 %): within 5 %",
    );
    expect(results[1]?.message).toBe(
      "exact count 90,015 → 92,715 instructions: a regression of +3.0 %, above 2 %",
    );
  });

  it("max_regression allows a count change of exactly the limit", () => {
    // 100 000 → 105 000 is +5 % exactly, 0.050000000000000044 in floating point.
    const change = 105_000 / 100_000 - 1;
    const five = {
      ...(fixtureEntries().find((e) => e.id === LARGE) as Entry),
      base: { value: 100_000, per_round: [100_000, 100_000] },
      head: { value: 105_000, per_round: [105_000, 105_000] },
      change,
      ci: [change, change] as [number, number],
    };
    expect(evaluate([{ benchmark: LARGE, max_regression: "5%" }], [five])[0]?.ok).toBe(true);
    expect(evaluate([{ benchmark: LARGE, max_regression: "4.99%" }], [five])[0]?.ok).toBe(false);
  });

  it("max_regression on secondary counts alone fails and says why", () => {
    const [result] = evaluate([{ benchmark: `${COLLECT} [total_bytes]`, max_regression: "5%" }]);
    expect(result?.ok).toBe(false);
    expect(result?.message).toBe(
      `budget rule 1 ("${COLLECT} [total_bytes]"): max-regression: the 1 benchmark it matches is a secondary count (total_bytes), which max-regression does not check: give it a limit under its metric`,
    );
  });

  it("an exact count from 0 is an unbounded regression; a count with one round says so", () => {
    const from0 = makeEntry({
      ...(fixtureEntries().find((e) => e.id === LARGE) as Entry),
      base: { value: 0, per_round: [0] },
      head: { value: 5, per_round: [5] },
      change: null,
      ci: null,
      determinism: {
        status: "unchecked",
        spread: { base: null, head: null },
        threshold: 0.01,
        noise_floor: 0.001,
      },
    });
    const [result] = evaluate([{ benchmark: LARGE, max_regression: "5%" }], [from0]);
    expect(result).toMatchObject({ ok: false, actual: null });
    expect(result?.message).toBe(
      "exact count 0 → 5 instructions: a regression no percentage bounds; one round on a side, so whether the count repeats was not checked",
    );
  });

  it("an exact count that stays 0 was checked: its regression is 0, not an empty value", () => {
    // A result without a value reads as "checked nothing" (render/budget-state.ts).
    const zero = makeEntry({
      ...(fixtureEntries().find((e) => e.id === LARGE) as Entry),
      base: { value: 0, per_round: [0, 0] },
      head: { value: 0, per_round: [0, 0] },
      change: null,
      ci: null,
    });
    const [result] = evaluate([{ benchmark: LARGE, max_regression: "5%" }], [zero]);
    expect(result).toMatchObject({ ok: true, actual: 0 });
    expect(result?.message).toMatch(/^exact count 0 → 0 instructions: not a regression/);
  });

  it("a non-deterministic count is checked like a timing: head median, CI lower bound", () => {
    const noisy = makeEntry({
      ...(fixtureEntries().find((e) => e.id === LARGE) as Entry),
      head: { value: 90_100, per_round: [90_015, 90_100, 90_300] },
      change: 0.03,
      ci: [0.01, 0.05],
      determinism: {
        status: "non-deterministic",
        spread: { base: 0, head: 0.003 },
        threshold: 0.03,
        noise_floor: 0.01,
      },
    });
    const results = evaluate(
      [{ benchmark: LARGE, instructions: "< 90k", max_regression: "2%" }],
      [noisy],
    );
    expect(results.map((r) => [r.statistic, r.ok, r.actual])).toEqual([
      ["instructions", false, 90_100],
      ["max_regression", true, 0.01],
    ]);
    expect(results[0]?.message).toContain("(median over 3 head rounds, which differ)");
    expect(results[1]?.message).toMatch(/is not confirmed/);
  });

  it("a count missing on head fails its budget; a new one is checked on head", () => {
    const [gone, fresh] = fixtureEntries().filter((e) => e.id === LARGE || e.id === COLLECT);
    const entries = [
      { ...(gone as Entry), head: null, change: null, ci: null, verdict: "missing" as const },
      { ...(fresh as Entry), base: null, change: null, ci: null, verdict: "new" as const },
    ];
    const results = evaluate(
      [{ benchmark: "sum::*", instructions: "< 100k", max_regression: "1%" }],
      entries,
    );
    expect(results.map((r) => [r.benchmark, r.statistic, r.ok])).toEqual([
      [COLLECT, "instructions", false],
      [COLLECT, "max_regression", false],
      [LARGE, "instructions", true],
      [LARGE, "max_regression", true],
    ]);
    expect(results[0]?.message).toContain("cannot check: no head measurement");
  });

  it("the fixture's budgets.yml over a report of the fixture's counts", async () => {
    const file = new URL("../../test/fixtures/budgets/budgets.yml", import.meta.url);
    const doc = parseYaml(await readFile(file, "utf8")) as { budgets: unknown[] };
    const rules = parseBudgets(doc.budgets.slice(4));
    const report = makeReport({ benchmarks: fixtureEntries(new Map([[LARGE, 91_000]])) });
    const results = evaluateBudgets(rules, report);
    expect(results.map((r) => [r.benchmark, r.statistic, r.ok])).toEqual([
      [COLLECT, "instructions", true],
      [COLLECT, "max_regression", true],
      [`${COLLECT} [total_bytes]`, "total_bytes", true],
      [LARGE, "instructions", true],
      // 90 015 → 91 000 instructions is +1.09 %, above the rule's 1 %.
      [LARGE, "max_regression", false],
      ["sum::sums::bench_sum small", "instructions", true],
      ["sum::sums::bench_sum small", "max_regression", true],
    ]);
  });
});
