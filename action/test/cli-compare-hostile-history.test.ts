// A history adds strictness to one run per side, never removes it (docs/statistics.md §14,
// "Records set aside" and "Never weaker than no history"): the histories that once let a +42 %
// regression pass as inconclusive, through the real CLI. 30 single-run records of unchanged code
// with 2 % run-to-run noise; the pull request's head runs benchmark 3 ×1.42.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runCli } from "./support/cli.ts";
import { recordSha, singleRunHistory } from "./support/single-run-history.ts";
import { syntheticSuite } from "./support/synthetic.ts";
import { validateReport } from "../src/schemas/validate-document.ts";
import type { BenchHistory } from "../src/schemas/history.gen.ts";
import type { BenchReport } from "../src/schemas/report.gen.ts";

const RUNNER = "ef".repeat(8);
const TARGET = "group/bench-3";
let dir: string;
let clean: BenchHistory;
let base: string;
let head: string;

/** The history with record i (from 1) of series `series` (all when undefined) × factor(i). */
function edited(factor: (i: number) => number | undefined, series?: number): BenchHistory {
  return {
    ...clean,
    commits: clean.commits.map((c, at) => ({
      ...c,
      results: c.results.map((r): (typeof c.results)[number] => {
        const f = factor(at + 1);
        return f === undefined || (series !== undefined && r[0] !== series)
          ? r
          : [r[0], r[1] * f, null, null, null];
      }),
    })),
  };
}

function compareWith(name: string, history: BenchHistory | undefined) {
  const json = path.join(dir, `${name}.json`);
  const md = path.join(dir, `${name}.md`);
  const args = ["compare", "--base", base, "--head", head, "--json", json, "--markdown", md];
  if (history !== undefined) {
    const file = path.join(dir, `${name}-history.json`);
    writeFileSync(file, JSON.stringify(history));
    args.push("--history", file);
  }
  const r = runCli(args);
  const report: BenchReport = validateReport(JSON.parse(readFileSync(json, "utf8")), json);
  return { status: r.status, stderr: r.stderr, report, markdown: readFileSync(md, "utf8") };
}

function regressed(report: BenchReport): string[] {
  return report.benchmarks.filter((e) => e.verdict === "regressed").map((e) => e.id);
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "benchgate-hostile-history-"));
  const suite = syntheticSuite({
    benchmarks: 12,
    rounds: 31,
    samples: 15,
    noise: 0.02,
    seed: 42,
    scale: (i) => (i === 3 ? 1.42 : 1),
  });
  clean = singleRunHistory(
    suite.base.slice(0, 30).map((f) => f.summary),
    { fingerprint: RUNNER },
  );
  const environment = { fingerprint: RUNNER };
  base = path.join(dir, "base.json");
  head = path.join(dir, "head.json");
  writeFileSync(base, JSON.stringify({ ...suite.base[30]?.summary, round: 1, environment }));
  writeFileSync(head, JSON.stringify({ ...suite.head[30]?.summary, round: 1, environment }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a history adds strictness, never removes it", () => {
  it("the +42 % head fails without a history and with a clean one", () => {
    expect(compareWith("none", undefined).status).toBe(1);
    const r = compareWith("clean", clean);
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.mode).toBe("history");
    expect(regressed(r.report)).toEqual([TARGET]);
    expect(r.report.noise.history?.set_aside).toEqual({ records: [], values: [], values_total: 0 });
  });

  it("one record of a disturbed job (every benchmark ×2) is set aside and named; the +42 % still fails", () => {
    const r = compareWith(
      "disturbed",
      edited((i) => (i === 17 ? 2 : undefined)),
    );
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.mode).toBe("history");
    expect(regressed(r.report)).toContain(TARGET);
    const records = r.report.noise.history?.set_aside?.records ?? [];
    expect(records.map((x) => x.sha)).toEqual([recordSha(17)]);
    expect(records[0]).toMatchObject({ outside: 12, of: 12 });
    expect(records[0]?.ratio).toBeCloseTo(2, 1);
    // The estimate no longer rests on the disturbed record: the history's own test confirms it.
    const target = r.report.benchmarks.find((e) => e.id === TARGET);
    expect(target?.notes.join(" ")).not.toMatch(/single-run rule/);
    // Escaped for Markdown: the parentheses as entities.
    expect(r.markdown).toMatch(
      /Set aside from the history as far outside the rest: record 0000000 &#40;12 of 12 series outside their usual range, median ×(1\.99|2\.0)/,
    );
  });

  it("a 2× spike in the target series alone is set aside as one value", () => {
    const r = compareWith(
      "spike",
      edited((i) => (i === 12 ? 2 : undefined), 3),
    );
    expect(r.status, r.stderr).toBe(1);
    expect(regressed(r.report)).toContain(TARGET);
    expect(r.report.noise.history?.set_aside?.values).toEqual([
      expect.objectContaining({ sha: recordSha(12), id: TARGET }),
    ]);
    expect(r.markdown).toMatch(/one value: group\/bench-3 in 0000000 &#40;×2/);
  });

  it("a regression that landed and was reverted (three records ×1.4) does not hide the next one", () => {
    const r = compareWith(
      "reverted",
      edited((i) => (i >= 20 && i <= 22 ? 1.4 : undefined), 3),
    );
    expect(r.status, r.stderr).toBe(1);
    expect(regressed(r.report)).toContain(TARGET);
  });

  it("alternating ×3 / ÷3 records: the single-run rule still fails it, and the spread is called out", () => {
    const r = compareWith(
      "alternating",
      edited((i) => (i % 2 === 0 ? 3 : 1 / 3)),
    );
    expect(r.status, r.stderr).toBe(1);
    expect(regressed(r.report)).toContain(TARGET);
    const target = r.report.benchmarks.find((e) => e.id === TARGET);
    expect(target?.notes.join(" ")).toMatch(/failed by the single-run rule/);
    expect(r.report.noise.history?.overstated).toBe(true);
    expect(r.report.reasons.join(" ")).toMatch(
      /history's noise is far above this job's own spread/,
    );
  });

  it("one value of 1e300 in a series of values near 1e-300 is set aside and named with a ratio the report can hold", () => {
    const history = edited(() => undefined);
    history.commits = history.commits.map((c, at) => ({
      ...c,
      results: c.results.map((r): (typeof c.results)[number] =>
        r[0] === 5 ? [r[0], at === 8 ? 1e300 : r[1] * 1e-300, null, null, null] : r,
      ),
    }));
    const r = compareWith("overflow", history);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.status, r.stderr).toBe(1);
    expect(r.report.noise.history?.set_aside?.values).toEqual([
      expect.objectContaining({ sha: recordSha(9), id: "group/bench-5", ratio: 1e300 }),
    ]);
  });

  it("values of 1e300 and 1e-300 that pass the schema set the history aside, never an internal error", () => {
    for (const [name, big, small] of [
      ["extreme", 1e300, 1e-300],
      ["denormal", 1e300, 5e-324],
    ] as const) {
      const history = edited(() => undefined);
      history.commits = history.commits.map((c, at) => ({
        ...c,
        results: c.results.map((r): (typeof c.results)[number] => [
          r[0],
          at % 2 === 0 ? big : small,
          null,
          null,
          null,
        ]),
      }));
      const r = compareWith(name, history);
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.status, r.stderr).toBe(1);
      expect(r.report.mode).toBe("single-run");
      expect(r.report.reasons.join(" ")).toMatch(/the history was set aside/);
      expect(r.stderr).toMatch(/--history not used: its records lie so far apart/);
    }
  });
});
