/* eslint-disable no-control-regex -- these tests are about control characters */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BenchReport } from "../schemas/report.gen.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { renderText } from "./text.ts";

// Our own SGR sequences: bold/colour on, reset.
const OUR_SGR = /\u001b\[(?:1;)?3[1235]m|\u001b\[0m/gu;

function failReport(): BenchReport {
  return makeReport({
    verdict: "fail",
    reasons: ["fib/30 regressed by +8.2 %"],
    benchmarks: [
      makeEntry({ id: "fib/30", change: 0.082, ci: [0.061, 0.104], verdict: "regressed" }),
      makeEntry({ id: "sort/1k", change: -0.15, ci: [-0.18, -0.12], verdict: "improved" }),
      makeEntry({ id: "sort/10k", change: 0.021, ci: [-0.01, 0.052], verdict: "inconclusive" }),
      makeEntry({ id: "hash/new", base: null, change: null, ci: null, verdict: "new" }),
      makeEntry({ id: "parse/0", change: 0.001, verdict: "unchanged" }),
    ],
    environment: { mismatch: false, differences: [], warnings: ["turbo boost is on"] },
    budgets: [
      {
        benchmark: "fib/30",
        rule: "p95 < 25ms",
        statistic: "p95",
        limit: 25e6,
        actual: 27.1e6,
        unit: "ns",
        ok: false,
      },
      {
        benchmark: "fib/20",
        rule: "p95 < 25ms",
        statistic: "p95",
        limit: 25e6,
        actual: 26e6,
        unit: "ns",
        ok: true,
        close: true,
      },
    ],
    claims: [
      {
        faster: "lookup/binary",
        than: "lookup/linear",
        by: "≥ 40x",
        bound: 40,
        ratio: 31.24,
        interval: [29.51, 33.08],
        level: 0.975,
        rounds: 5,
        verdict: "false",
        fails: true,
        reason:
          "31.2× over 5 head rounds, [29.5×, 33.1×] (97.5 %): even the upper end is below 40×",
      },
      {
        faster: "lookup/binary",
        than: "lookup/linear",
        by: "≥ 10x",
        bound: 10,
        ratio: 31.24,
        interval: [29.51, 33.08],
        level: 0.975,
        rounds: 5,
        verdict: "holds",
        fails: false,
        reason: "31.2× over 5 head rounds, [29.5×, 33.1×] (97.5 %): the lower end is at least 10×",
      },
    ],
    head_to_head: [
      {
        suite: "http",
        benchmark: "hello req/s",
        reference: { variant: "python", id: "python/hello req/s" },
        other: { variant: "rust", id: "rust/hello req/s" },
        unit: "req/s",
        direction: "bigger_is_better",
        level: 0.95,
        head: { ratio: 8.13, interval: [7.62, 8.68], rounds: 5 },
        base: { ratio: null, interval: null, rounds: 0, reason: "not measured on base" },
      },
    ],
    golden: [{ name: "cli-help", ok: false, message: "stdout differs" }],
    smells: [{ kind: "bimodal", benchmarks: ["fib/30"], evidence: "two clusters" }],
  });
}

const ANSI_NAMES = [
  "\u001b[31mred\u001b[0m",
  "\u001b]8;;https://evil.test\u0007click\u001b]8;;\u0007",
  "\u001b[2J\u001b[Hclear",
  "\u009b31mcsi",
  "\u001b]0;title\u0007",
  "bell\u0007",
  "back\bspace",
  "\u202Eevil",
];

function ansiReport(names: readonly string[]): BenchReport {
  return makeReport({
    verdict: "fail",
    reasons: [...names],
    benchmarks: names.map((id, i) =>
      makeEntry({
        id,
        suite: id,
        unit: i % 2 === 0 ? id.slice(0, 32) || "u" : "ns",
        change: 0.05,
        verdict: "regressed",
        notes: [id],
      }),
    ),
    environment: { mismatch: true, differences: [...names], warnings: [...names] },
    budgets: names.map((n) => ({
      benchmark: n,
      rule: n,
      statistic: "p95",
      unit: n.slice(0, 32),
      limit: 1,
      actual: 2,
      ok: false,
    })),
    golden: names.map((n) => ({ name: n.slice(0, 256) || "g", ok: false, message: n })),
    smells: names.map((n) => ({ kind: "noisy", benchmarks: [n], evidence: n })),
    claims: names.map((n, i) => ({
      faster: n,
      than: n,
      by: n.slice(0, 64),
      bound: 2,
      ratio: 3,
      interval: [2.5, 3.5],
      level: 0.95,
      rounds: 3,
      verdict: i % 2 === 0 ? ("holds" as const) : ("false" as const),
      fails: i % 2 === 1,
      reason: n,
    })),
    head_to_head: names.map((n) => ({
      suite: n.slice(0, 256),
      benchmark: n,
      reference: { variant: n.slice(0, 256), id: n },
      other: { variant: n.slice(0, 256), id: n },
      unit: n.slice(0, 32) || "u",
      direction: "bigger_is_better" as const,
      level: 0.95,
      head: { ratio: 2, interval: [1.5, 2.5], rounds: 3 },
      base: { ratio: null, interval: null, rounds: 0, reason: n },
    })),
  });
}

function expectNoInjectedControls(out: string): void {
  expect(out.replace(OUR_SGR, "")).not.toMatch(
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u,
  );
}

describe("renderText", () => {
  it("prints the headline, an aligned table, and the noise line", () => {
    const out = renderText(failReport());
    expect(out).toMatchSnapshot();
    // The first table: what changed or fails, up to the blank line after it.
    const lines = out.split("\n");
    const start = lines.findIndex((l) => l.startsWith("benchmark"));
    const table = lines
      .slice(start, lines.indexOf("", start))
      .filter((l) => /^(fib|sort)/u.test(l));
    expect(table.length).toBe(2);
    const changeColumn = table.map((l) => l.indexOf("%"));
    expect(new Set(changeColumn).size).toBe(1); // right-aligned change column
  });

  it("labels a single run as unverified", () => {
    const out = renderText(
      makeReport({
        mode: "single-run",
        noise: {
          median_sd: null,
          prior_sd: null,
          prior_df: null,
          median_mde: null,
          period_effect: null,
        },
      }),
    );
    expect(out).toContain("SINGLE RUN PER SIDE — UNVERIFIED");
    expect(out).toContain("noise: not measurable from one run per side");
  });

  it("colours only its own words", () => {
    const out = renderText(failReport(), { color: true });
    expect(out.startsWith("\u001b[1;31mFAIL\u001b[0m")).toBe(true);
    expectNoInjectedControls(out);
  });

  it("never lets an ANSI escape from the report reach the terminal", () => {
    for (const color of [false, true]) {
      const out = renderText(ansiReport(ANSI_NAMES), { color });
      expectNoInjectedControls(out);
      if (!color) expect(out).not.toContain("\u001b");
      expect(out).toContain("\uFFFD[31mred");
    }
  });

  it("property: arbitrary names never inject control characters", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 30 }), { minLength: 1, maxLength: 6 }),
        (names) => {
          expectNoInjectedControls(renderText(ansiReport(names), { color: true }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("never starts a line with a workflow command, and keeps the table aligned", () => {
    const ids = ["::add-mask::secret", "  ::stop-commands::t", "a ##[add-mask]b", "fib/30"];
    const out = renderText(
      makeReport({
        verdict: "fail",
        reasons: ids,
        benchmarks: ids.map((id) => makeEntry({ id, change: 0.05, verdict: "regressed" })),
      }),
    );
    const lines = out.split("\n");
    expect(lines.filter((l) => /^\s*::/u.test(l) || l.includes("##["))).toEqual([]);
    const rows = lines.filter((l) => / {2}regressed$/u.test(l));
    expect(rows).toHaveLength(ids.length);
    expect(rows).toContainEqual(expect.stringMatching(/^:\\u003aadd-mask::secret /u));
    expect(new Set(rows.map((l) => l.indexOf("%"))).size).toBe(1);
  });

  it("cuts long tables", () => {
    const benchmarks = Array.from({ length: 120 }, (_, i) =>
      makeEntry({ id: `b/${i}`, change: 0.05, verdict: "regressed" }),
    );
    const out = renderText(makeReport({ verdict: "fail", benchmarks }), { maxRows: 10 });
    expect(out).toContain("… 110 more rows; see report.json");
  });
});

describe("renderText budgets", () => {
  it("lists a budget that checked nothing as not checked, and never counts it as met", () => {
    const report = makeReport({
      budgets: [
        { benchmark: "a", rule: "median < 1s", statistic: "median", actual: 5e8, ok: true },
        {
          benchmark: "new",
          rule: "max_regression 5%",
          statistic: "max_regression",
          actual: null,
          ok: true,
          message: "new on head: no base to regress from",
        },
      ],
    });
    const lines = renderText(report).split("\n");
    expect(lines).toContain("budgets: 1 of 2 met, 1 not checked");
    expect(lines).toContain(
      "  - new: max_regression 5% (max_regression), actual — (not checked: new on head: no base to regress from)",
    );
  });
});
