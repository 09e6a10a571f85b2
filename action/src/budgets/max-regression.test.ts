// max_regression's messages write the measured change and its interval with the comment's
// formatter: a percentage under 1,000 %, a ratio from there on (a bound of "+2221873 %" is
// ×22,000), so the budgets table and report.json never print a precision no run has.
import { describe, expect, it } from "vitest";
import { makeEntry } from "../../test/support/report-factory.ts";
import { evaluateBudgets } from "./evaluate-budgets.ts";
import { parseBudgets } from "./parse-budget.ts";

const rules = parseBudgets([{ benchmark: "parse", max_regression: "5%" }]);

function message(change: number, ci: [number, number]): string | undefined {
  const entry = makeEntry({ id: "parse", change, ci, verdict: "regressed" });
  return evaluateBudgets(rules, { benchmarks: [entry] })[0]?.message;
}

describe("max_regression's message", () => {
  it("writes a change and its interval under 1,000 % as signed percentages", () => {
    expect(message(0.104, [0.061, 0.152])).toBe(
      "confirmed regression above 5 %: estimate +10.4 %, CI [+6.1 %, +15.2 %], lower bound +6.1 % > 5 %",
    );
    expect(message(0.02, [-0.012, 0.056])).toMatch(
      /^estimate \+2\.0 %, CI \[\u22121\.2 %, \+5\.6 %\]: a regression above 5 % is not confirmed/u,
    );
  });

  it("writes a bound of 1,000 % or more as a ratio", () => {
    expect(message(29, [9.5, 22218.73])).toBe(
      "confirmed regression above 5 %: estimate ×30, CI [+950.0 %, ×22,000], lower bound +950.0 % > 5 %",
    );
  });
});
