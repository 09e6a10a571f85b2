import { describe, expect, it } from "vitest";
import { evaluateBudgets } from "../budgets/evaluate-budgets.ts";
import type { Entry } from "../schemas/report.gen.ts";
import { validateConfig } from "../schemas/validate-document.ts";
import { budgetRules } from "./plan.ts";
import { suiteBudgetRules } from "./suite-budgets.ts";

const SERVER = ["{target}/release/server", "--port", "{port}"];

function config(suite: Record<string, unknown>, budgets?: unknown[]) {
  return validateConfig(
    {
      version: 1,
      suites: [
        { name: "api", kind: "load", endpoints: [{ name: "health", path: "/health" }], ...suite },
      ],
      ...(budgets === undefined ? {} : { budgets }),
    },
    "benchgate.yml",
  );
}

describe("a load suite's own limits", () => {
  it("default to 0.1 % errors per endpoint and 16 more descriptors per server, after budgets:", () => {
    const doc = config({ server: SERVER }, [{ benchmark: "health p99", median: "< 10ms" }]);
    const rules = budgetRules(doc, "benchgate.yml");
    expect(rules.map((r) => [r.index, r.benchmark, r.origin])).toEqual([
      [0, "health p99", undefined],
      [1, "health errors", "suite api's max-error-rate"],
      [2, "api/server [fd_growth]", "suite api's max-fd-growth"],
    ]);
    expect(rules[1]?.counts[0]).toMatchObject({ metric: "error_rate", op: "<=", value: 0.1 });
    expect(rules[2]?.counts[0]).toMatchObject({ metric: "fd_growth", op: "<=", value: 16 });
  });

  it("follow the suite's keys, once per variant", () => {
    const doc = config({
      variants: [
        { name: "rust", server: SERVER },
        { name: "python", server: ["python3", "s.py", "{port}"] },
      ],
      "max-error-rate": "2%",
      "max-fd-growth": 0,
      "max-rss-growth": "64 MiB",
    });
    const rules = suiteBudgetRules(doc, 3);
    expect(rules.map((r) => [r.index, r.benchmark, r.counts[0]?.value])).toEqual([
      [3, "rust/health errors", 2],
      [4, "api/rust/server [fd_growth]", 0],
      [5, "api/rust/server [rss_growth]", 64 * 2 ** 20],
      [6, "python/health errors", 2],
      [7, "api/python/server [fd_growth]", 0],
      [8, "api/python/server [rss_growth]", 64 * 2 ** 20],
    ]);
  });

  it("fail like a budget, named by the suite key that set them", () => {
    const [errors] = suiteBudgetRules(config({ server: SERVER }), 0);
    if (errors === undefined) throw new Error("no rule");
    const entry = {
      id: "health errors",
      suite: "api",
      unit: "%",
      metric: "error_rate",
      secondary: true,
      head: { value: 3.5, per_round: [2, 3.5, 5] },
    } as unknown as Entry;
    const [result] = evaluateBudgets([errors], { benchmarks: [entry] });
    expect(result).toMatchObject({
      benchmark: "health errors",
      ok: false,
      rule: "error_rate <= 0.1%",
    });
    const missing = evaluateBudgets([errors], { benchmarks: [] })[0];
    expect(missing?.message).toMatch(/^suite api's max-error-rate \("health errors"\)/);
  });
});
