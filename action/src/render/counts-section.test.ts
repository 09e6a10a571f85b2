import { describe, expect, it } from "vitest";
import { renderComment } from "./comment.ts";
import { renderText } from "./text.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import type { Entry } from "../schemas/report.gen.ts";

function count(id: string, base: number, head: number, extra: Partial<Entry> = {}): Entry {
  return makeEntry({
    id,
    suite: "counts",
    source: "gungraun",
    unit: "instructions",
    metric: "instructions",
    base: { value: base, per_round: [base, base, base] },
    head: { value: head, per_round: [head, head, head] },
    change: head / base - 1,
    ci: [head / base - 1, head / base - 1],
    p: null,
    q: null,
    determinism: {
      status: "deterministic",
      spread: { base: 0, head: 0 },
      threshold: 0.01,
      noise_floor: 0.001,
    },
    ...extra,
  });
}

const report = makeReport({
  benchmarks: [
    makeEntry({ id: "parse/1000", change: 0.03, verdict: "inconclusive", ci: [-0.2, 0.3] }),
    count("demo::counts::parse small", 1_000_000, 1_031_000, { verdict: "regressed" }),
    count("demo::counts::checksum", 50_000, 50_000),
    count("demo::counts::render", 80_000, 80_400, {
      notes: [
        "+0.50 % instructions: a real change (the count is exact) but below the 1.0 % threshold",
      ],
    }),
    count("spin", 9_000_000, 11_000_000, {
      verdict: "inconclusive",
      ci: [-0.3, 0.6],
      determinism: {
        status: "non-deterministic",
        spread: { base: 0.31, head: 0.22 },
        threshold: 0.03,
        noise_floor: 0.01,
      },
    }),
    count("demo::counts::parse small [l1_hits]", 900, 990, {
      metric: "l1_hits",
      unit: "hits",
      secondary: true,
      verdict: "regressed",
    }),
  ],
  settings: { ...makeReport().settings, count_threshold: 0.01, count_noise_floor: 0.001 },
});

describe("the counts section", () => {
  const body = renderComment(report);

  it("shows decided counts in the one table, with the exact change, and their rule in the diagnostics", () => {
    const [visible = "", diagnostics = ""] = body.split("<details><summary>Diagnostics</summary>");
    expect(visible).toMatch(
      /<code>demo::<!-- -->counts::parse small<\/code> \(counts\) \| 1,000,000 instructions \| 1,031,000 instructions \| \+3\.1 % \| exact \| 🔴 regressed/,
    );
    expect(visible).not.toContain("checksum");
    expect(visible).not.toContain("counts::render");
    expect(diagnostics).toMatch(/regressed = at least \+1\.0 %; changes under 0\.1 % ignored/);
  });

  it("marks non-deterministic counts with their spread, among the inconclusive rows", () => {
    const folded = body.split("inconclusive rows</summary>")[1] ?? "";
    expect(folded).toMatch(
      /<code>spin<\/code>.*🟡 inconclusive, \*\*non-deterministic\*\* \(spread 31\.0 % base, 22\.0 % head\)/,
    );
    expect(body).toContain("1 count differs between rounds of the same code");
  });

  it("folds secondary counts away, never red: they never fail the gate", () => {
    const secondary = body.split("<details><summary>Secondary counts")[1]?.split("</details>")[0];
    expect(secondary).toMatch(
      /^ that changed beyond their floor: 1 .*never fail the gate\)<\/summary>/,
    );
    expect(secondary).toMatch(/\+10\.0 % l1 hits \|$/mu);
    expect(secondary).not.toMatch(/🔴|❌/u);
  });

  it('names a load test\'s p99.9 as such, not as "p99 9"', () => {
    const latency = makeEntry({
      id: "rust/health p99.9",
      suite: "api",
      unit: "ns",
      metric: "p99_9",
      secondary: true,
      verdict: "regressed",
      change: 0.2,
    });
    const withLatency = renderComment(makeReport({ benchmarks: [latency] }));
    expect(withLatency).toMatch(/\+20\.0 % p99\.9 \|$/mu);
    expect(withLatency).not.toContain("p99 9");
  });

  it("lists counts in the terminal too", () => {
    const text = renderText(report);
    // In the comment's order: the decided count in the one table, the undecided one after it.
    const regressed = text.search(/^demo::counts::parse small .*regressed$/mu);
    const undecided = text.search(/^spin .*inconclusive \(non-deterministic\)$/mu);
    expect(regressed).toBeGreaterThan(0);
    expect(undecided).toBeGreaterThan(regressed);
  });

  it("adds nothing when there are no counts", () => {
    expect(renderComment(makeReport())).not.toContain("Instruction counts");
  });
});
