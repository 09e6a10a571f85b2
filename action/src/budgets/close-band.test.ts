// The close band (`warn:`) on time, rate and count limits, and limits in % on a metric measured
// in % (a load test's error rate).
import { describe, expect, it } from "vitest";
import type { Entry } from "../schemas/report.gen.ts";
import { errorOf } from "../../test/support/input-error.ts";
import { closeBy, overshoot } from "./close-band.ts";
import { parseCountLimit } from "./count-limit.ts";
import { evaluateBudgets } from "./evaluate-budgets.ts";
import { parseBudgetRule, parseBudgets } from "./parse-budget.ts";

function entry(id: string, value: number, over: Partial<Entry> = {}): Entry {
  return {
    id,
    suite: "s",
    source: "custom",
    unit: "ns",
    direction: "smaller_is_better",
    verdict: "unchanged",
    base: { value, per_round: [value, value, value] },
    head: { value, per_round: [value, value, value] },
    change: 0,
    ci: [-0.01, 0.01],
    p: 0.5,
    q: 0.5,
    rounds: 3,
    mde: 0.05,
    unverified: false,
    notes: [],
    ...over,
  };
}

describe("overshoot and closeBy", () => {
  it.each([
    [110, "<", 100, 0.1],
    [100, "<", 100, 0],
    [90, "<", 100, 0],
    [85, ">", 100, 0.15],
    [120, ">=", 100, 0],
    [1, "<", 0, Infinity],
  ] as const)("%d %s %d is past by %d", (actual, op, limit, by) => {
    expect(overshoot(actual, op, limit)).toBeCloseTo(by, 12);
  });

  it("is close only strictly inside the band, and never without one", () => {
    const band = { fraction: 0.2, text: "20%" };
    expect(closeBy(119, "<", 100, band)).toBeCloseTo(0.19, 12);
    expect(closeBy(120, "<", 100, band)).toBeUndefined();
    expect(closeBy(119, "<", 100, undefined)).toBeUndefined();
    expect(closeBy(1, "<", 0, band)).toBeUndefined();
  });
});

describe("warn: parsing", () => {
  it("reads a percentage or a fraction", () => {
    const rule = parseBudgetRule({ benchmark: "a", median: "< 1ms", warn: "20%" }, 0);
    expect(rule).toMatchObject({ warn: 0.2, warnText: "20%" });
    expect(parseBudgetRule({ benchmark: "a", p99: "< 1ms", warn: 0.1 }, 0).warn).toBe(0.1);
  });

  it.each([
    [{ benchmark: "a", median: "< 1ms", warn: "0%" }, "warn: a close band is above 0"],
    [{ benchmark: "a", median: "< 1ms", warn: "-5%" }, 'warn: expected a percentage such as "5%"'],
    [{ benchmark: "a", median: "< 1ms", warn: 20 }, "warn: 20 would be 2000 %"],
    [
      { benchmark: "a", max_regression: "5%", warn: "20%" },
      "warn: a close band widens the rule's limits",
    ],
    [{ benchmark: "a", warn: "20%" }, "this rule has none"],
    [{ benchmark: "a", median: "< 1ms", wran: "20%" }, "wran: unknown key (did you mean warn?)"],
  ])("rejects %j naming the key", (raw, message) => {
    const error = errorOf(() => parseBudgetRule(raw, 1));
    expect(error.message).toContain(message);
    expect(error.jsonPath).toMatch(/^\/budgets\/1\/(warn|wran)$/);
  });
});

describe("evaluateBudgets with a close band", () => {
  const rules = parseBudgets([{ benchmark: "api p99", median: "< 30ms", warn: "20%" }]);

  it.each([
    [25e6, true, undefined, "median 25 ms < 30 ms"],
    [
      33e6,
      true,
      true,
      "median 33 ms is close to the budget < 30 ms: past the limit by 10 %, within the close band of 20%",
    ],
    [36e6, false, undefined, "median 36 ms breaks the budget < 30 ms, past its close band of 20%"],
  ])("a time of %d ns: ok %s, close %s", (value, ok, close, message) => {
    const [r] = evaluateBudgets(rules, { benchmarks: [entry("api p99", value)] });
    expect(r?.ok).toBe(ok);
    expect(r?.close).toBe(close);
    expect(r?.message).toContain(message);
  });

  it("a rate limit is close when it is below by less than the band", () => {
    const rate = parseBudgets([{ benchmark: "api req/s", median: "> 1000 req/s", warn: "10%" }]);
    const over = { unit: "req/s", direction: "bigger_is_better" } as const;
    const check = (value: number) =>
      evaluateBudgets(rate, { benchmarks: [entry("api req/s", value, over)] })[0];
    expect(check(1200)).toMatchObject({ ok: true });
    expect(check(1200)?.close).toBeUndefined();
    expect(check(950)).toMatchObject({ ok: true, close: true, actual: 950 });
    expect(check(850)).toMatchObject({ ok: false });
  });

  it("a count limit is close the same way; max_regression in the same rule has no band", () => {
    const count = parseBudgets([
      { benchmark: "sum", instructions: "< 100k", max_regression: "1%", warn: "5%" },
    ]);
    const e = entry("sum", 103_000, {
      unit: "instructions",
      metric: "instructions",
      base: { value: 90_000, per_round: [90_000, 90_000] },
      change: 103_000 / 90_000 - 1,
      ci: [0.1, 0.2],
    });
    const [instructions, regression] = evaluateBudgets(count, { benchmarks: [e] });
    expect(instructions).toMatchObject({ ok: true, close: true, statistic: "instructions" });
    expect(instructions?.message).toContain(
      "instructions 103,000 is close to the budget < 100,000 instructions: past the limit by 3 %, within the close band of 5%",
    );
    expect(regression).toMatchObject({ ok: false, statistic: "max_regression" });
    expect(regression?.close).toBeUndefined();
  });

  it("a limit that cannot be checked is broken, band or not", () => {
    const p95 = parseBudgets([{ benchmark: "a", p95: "< 30ms", warn: "50%" }]);
    const [r] = evaluateBudgets(p95, { benchmarks: [entry("a", 1)], headSummaries: [] });
    expect(r).toMatchObject({ ok: false, actual: null });
  });
});

describe("limits in %", () => {
  it('parses "< 1%" as 1 in the unit %', () => {
    expect(parseCountLimit("error_rate", "< 1%")).toEqual({
      metric: "error_rate",
      op: "<",
      value: 1,
      unit: "%",
      text: "< 1%",
    });
    expect(parseCountLimit("error_rate", "<= 0.5 %").value).toBe(0.5);
    expect(() => parseCountLimit("error_rate", "< 1k%")).toThrow(
      "a percentage takes no multiplier",
    );
  });

  // A load test's `E errors` entry (secondary, metric error_rate, unit %).
  const errors = (value: number): Entry =>
    entry("api errors", value, { unit: "%", metric: "error_rate", secondary: true });

  it("checks an error rate in % against the head's value", () => {
    const rules = parseBudgets([{ benchmark: "api*", error_rate: "< 1%", warn: "50%" }]);
    const check = (value: number) => evaluateBudgets(rules, { benchmarks: [errors(value)] })[0];
    expect(check(0.4)).toMatchObject({ ok: true, actual: 0.4, unit: "%" });
    expect(check(0.4)?.message).toBe("error_rate 0.4 < 1 % (the same in all 3 head rounds)");
    expect(check(1.2)).toMatchObject({ ok: true, close: true });
    expect(check(2)).toMatchObject({ ok: false });
  });

  it("refuses a percentage on a metric that is not measured in %: a relative change is max-regression", () => {
    const rules = parseBudgets([{ benchmark: "sum", instructions: "< 5%" }]);
    const e = entry("sum", 4, { unit: "instructions", metric: "instructions" });
    const [r] = evaluateBudgets(rules, { benchmarks: [e] });
    expect(r).toMatchObject({ ok: false, actual: null });
    expect(r?.message).toBe(
      `budget rule 1 ("sum"): cannot check: instructions is counted in instructions, and a limit in % is for a metric measured in % (such as error_rate); a relative change is max-regression's`,
    );
    // and a count limit without % on a metric in %: the units disagree
    const plain = parseBudgets([{ benchmark: "api*", error_rate: "< 1 errors" }]);
    expect(evaluateBudgets(plain, { benchmarks: [errors(0.1)] })[0]).toMatchObject({ ok: false });
  });
});

describe("a percentile limit on an entry that is that percentile", () => {
  it("checks a load test's `E p95` (metric p95) on its own value", () => {
    const rules = parseBudgets([{ benchmark: "api p95", p95: "< 25ms" }]);
    const p95 = entry("api p95", 20e6, { metric: "p95", secondary: true });
    const [r] = evaluateBudgets(rules, { benchmarks: [p95], headSummaries: [] });
    expect(r).toMatchObject({ ok: true, actual: 20e6, statistic: "p95" });
    expect(r?.message).toBe("p95 20 ms < 25 ms (median over head rounds of the p95)");
  });
});
