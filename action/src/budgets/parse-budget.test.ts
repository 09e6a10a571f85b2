import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { globMatch, parseBudgetRule, parseBudgets, parseLimit } from "./parse-budget.ts";
import { errorOf } from "../../test/support/input-error.ts";

const fixture = new URL("../../test/fixtures/budgets/budgets.yml", import.meta.url);

describe("parseLimit", () => {
  it("converts time units to ns", () => {
    expect(parseLimit("median", "< 25ms")).toMatchObject({ op: "<", value: 25e6, unit: "ns" });
    expect(parseLimit("p95", "<=1.2µs").value).toBeCloseTo(1200);
    expect(parseLimit("p95", "< 1.2us").value).toBeCloseTo(1200);
    expect(parseLimit("p99", "< 100ns").value).toBe(100);
    expect(parseLimit("mean", "< 4.5 s").value).toBe(4.5e9);
  });

  it("accepts rates with > and converts them", () => {
    expect(parseLimit("median", "> 1000 ops/s")).toMatchObject({
      op: ">",
      value: 1000,
      unit: "ops/s",
      kind: "rate",
    });
    expect(parseLimit("median", ">= 2 MiB/s")).toMatchObject({
      value: 2 * 1024 * 1024,
      unit: "B/s",
    });
  });

  it.each([
    ["25ms", /comparison/],
    ["< 25", /no unit/],
    ["> 25ms", /upper bound/],
    ["< 100 ops/s", /bigger-is-better/],
    ["< 25 furlongs", /not a time/],
    ["< -3ms", /comparison/],
    ["< 10 MB", /not a time/],
  ])("rejects %s", (text, pattern) => {
    expect(() => parseLimit("median", text)).toThrow(pattern);
  });
});

describe("parseBudgetRule", () => {
  it("parses a full rule", () => {
    const rule = parseBudgetRule(
      { benchmark: "archive/*", p95: "< 25ms", p99: "< 30ms", "max-regression": "5%" },
      0,
    );
    expect(rule.limits.map((l) => l.statistic)).toEqual(["p95", "p99"]);
    expect(rule.maxRegression).toBeCloseTo(0.05);
    expect(parseBudgetRule({ benchmark: "x", "max-regression": 0.1 }, 0).maxRegression).toBe(0.1);
  });

  it("still reads max-regression's old spelling, max_regression, the same way", () => {
    const rule = parseBudgetRule({ benchmark: "x", max_regression: "5%" }, 0);
    expect(rule.maxRegression).toBeCloseTo(0.05);
    expect(rule.maxRegressionText).toBe("5%");
  });

  it.each([
    [{ benchmark: "a/*", p95: "> 25ms" }, 'budget rule 3 ("a/*"): p95:', "/budgets/2/p95"],
    [
      { benchmark: "a/*", p90: "< 25ms" },
      'budget rule 3 ("a/*"): p90: unknown key',
      "/budgets/2/p90",
    ],
    [{ benchmark: "a/*", medain: "< 1ms" }, "medain: unknown key", "/budgets/2/medain"],
    [
      { benchmark: "a/*", max_regression: 5 },
      "max_regression: 5 would be 500 %",
      "/budgets/2/max_regression",
    ],
    [
      { benchmark: "a/*", max_regression: "five" },
      "max_regression: expected a percentage",
      "/budgets/2/max_regression",
    ],
    [{ benchmark: "a/*", median: 25 }, "median: expected a string", "/budgets/2/median"],
    [{ p95: "< 1ms" }, "budget rule 3: benchmark:", "/budgets/2/benchmark"],
    [{ benchmark: "" }, "benchmark:", "/budgets/2/benchmark"],
    [{ benchmark: "a/*" }, 'budget rule 3 ("a/*"): no limit', "/budgets/2"],
    ["a/*", "budget rule 3: expected a mapping", "/budgets/2"],
  ])("rejects %j naming the rule and key", (raw, message, path) => {
    const error = errorOf(() => parseBudgetRule(raw, 2));
    expect(error.message).toContain(message);
    expect(error.jsonPath).toBe(path);
  });

  it("parses count limits under any metric key, in the order written", () => {
    const rule = parseBudgetRule(
      {
        benchmark: "sum::*",
        total_bytes: "<= 1 MiB",
        instructions: "< 2.5M",
        memcheck_errors: "<= 0",
        max_regression: "2%",
      },
      0,
    );
    expect(rule.limits).toEqual([]);
    expect(rule.counts).toEqual([
      { metric: "total_bytes", op: "<=", value: 2 ** 20, unit: "B", text: "<= 1 MiB" },
      { metric: "instructions", op: "<", value: 2_500_000, text: "< 2.5M" },
      { metric: "memcheck_errors", op: "<=", value: 0, text: "<= 0" },
    ]);
    expect(rule.maxRegression).toBeCloseTo(0.02);
    const mixed = parseBudgetRule({ benchmark: "*", median: "< 1s", instructions: "< 1G" }, 0);
    expect([mixed.limits.length, mixed.counts.length]).toEqual([1, 1]);
  });

  it.each([
    [
      { benchmark: "sum::*", instructions: "> 2.5M" },
      'budget rule 3 ("sum::*"): instructions: "> 2.5M": a count is smaller-is-better',
      "/budgets/2/instructions",
    ],
    [
      { benchmark: "sum::*", instructions: 2500000 },
      'budget rule 3 ("sum::*"): instructions: expected a string such as "< 2.5M", got 2500000',
      "/budgets/2/instructions",
    ],
    [
      { benchmark: "sum::*", total_bytes: "< 1 MiB/s" },
      'total_bytes: "< 1 MiB/s": "MiB/s" is a rate, and total_bytes is a count',
      "/budgets/2/total_bytes",
    ],
    [
      { benchmark: "sum::*", medain: "< 1ms" },
      'budget rule 3 ("sum::*"): medain: unknown key (did you mean median?)',
      "/budgets/2/medain",
    ],
    [
      { benchmark: "sum::*", p90: "< 1M" },
      "p90: unknown key (did you mean p50, p95 or p99?)",
      "/budgets/2/p90",
    ],
    [
      { benchmark: "sum::*", max_regresion: "5%" },
      "max_regresion: unknown key (did you mean max-regression?)",
      "/budgets/2/max_regresion",
    ],
    [
      { benchmark: "sum::*", "max-regression": "5%", max_regression: "5%" },
      "max_regression: max-regression and its old spelling max_regression in one rule: keep max-regression",
      "/budgets/2/max_regression",
    ],
    [
      { benchmark: "sum::*", "total-bytes": "< 1M" },
      "total-bytes: unknown key (expected benchmark, median, mean, p50, p95, p99, max-regression, warn or a count metric as report.json names it (instructions, total_bytes, …)); count metrics are written as in report.json: total_bytes",
      "/budgets/2/total-bytes",
    ],
    [
      { benchmark: "sum::*", Instructions: "< 1M" },
      "Instructions: unknown key (expected benchmark, median",
      "/budgets/2/Instructions",
    ],
    [
      { benchmark: "sum::*", ["a".repeat(33)]: "< 1M" },
      `${"a".repeat(33)}: unknown key`,
      `/budgets/2/${"a".repeat(33)}`,
    ],
    [
      { benchmark: "sum::*", __proto__x: "< 1M" },
      "__proto__x: unknown key",
      "/budgets/2/__proto__x",
    ],
  ])("rejects count key %j naming the rule and key", (raw, message, path) => {
    const error = errorOf(() => parseBudgetRule(raw, 2));
    expect(error.message).toContain(message);
    expect(error.jsonPath).toBe(path);
  });

  it("a median limit in instructions points at the metric key", () => {
    const error = errorOf(() =>
      parseBudgetRule({ benchmark: "a", median: "< 2.5M instructions" }, 0),
    );
    expect(error.message).toContain(
      `a count's limit goes under its metric, e.g. instructions: "< 2.5M"`,
    );
  });

  it("rejects a non-list budgets value and accepts absent", () => {
    expect(parseBudgets(undefined)).toEqual([]);
    expect(errorOf(() => parseBudgets({ benchmark: "x" })).message).toMatch(/list/);
  });

  it("parses the fixture YAML", () => {
    const doc = parseYaml(readFileSync(fixture, "utf8")) as { budgets: unknown };
    const rules = parseBudgets(doc.budgets);
    expect(rules).toHaveLength(5);
    expect(rules[0]?.limits[0]?.value).toBe(20e6);
    expect(rules[3]?.limits[0]).toMatchObject({ unit: "B/s", op: ">" });
    expect(rules[4]?.counts.map((c) => [c.metric, c.op, c.value])).toEqual([
      ["instructions", "<", 100_000],
      ["total_bytes", "<=", 8192],
    ]);
    expect(rules[4]?.maxRegression).toBeCloseTo(0.01);
  });
});

describe("globMatch", () => {
  it.each([
    ["archive/*", "archive/write/single", true],
    ["*/single", "archive/write/single", true],
    ["archive/*/single", "archive/write/x/single", true],
    ["archive/?", "archive/1", true],
    ["archive/?", "archive/12", false],
    ["archive", "archive/write", false],
    ["a.c", "abc", false],
    ["a+(b)[c]", "a+(b)[c]", true],
    ["*", "", true],
    ["*a*a*a*a*a*b", "a".repeat(2000), false],
    ["format_resolution/*", "format_resolution/explicit", true],
    ["cli/am --help", "cli/am --help", true],
  ])("%s vs %s → %s", (glob, id, expected) => {
    expect(globMatch(glob, id)).toBe(expected);
  });
});
