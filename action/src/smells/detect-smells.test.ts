// benchgate.yml's `smells:` block (ignore / fail-on, globally and per suite), withSmells folding
// failing smells into the verdict, and gateReport running it all into a valid report.
import { describe, expect, it } from "vitest";
import { gateReport } from "../gate/decide.ts";
import { resolveSettings } from "../core/settings.ts";
import {
  kindsOf,
  mergeSuites,
  reportOf,
  shapedSuite,
  sizeSeries,
  smellsOf,
  type ShapedBenchmark,
  type ShapedSuite,
  noisySuite,
} from "../../test/support/smell-suites.ts";
import { detectSmells, withSmells, type SmellConfig } from "./detect-smells.ts";

/** The identical-timings case in `suite`. */
function sharedRuntime(suite: string): ShapedBenchmark[] {
  return ["list", "invoke", "search", "info"].map((name, i) => ({
    id: `${suite}/${name}`,
    suite,
    ns: 11.92e6 + i * 0.03e6,
    spread: 0.003,
  }));
}

/** The flat-scaling case in `suite`. */
function coldStart(suite: string): ShapedBenchmark[] {
  return sizeSeries(`${suite}/ingest`, [100, 1000, 10000], [17e6, 19e6, 29e6], { suite });
}

/** Three suites: api (identical-timings), cli (identical-timings), store (flat-scaling). */
const SUITES: ShapedSuite = shapedSuite({
  seed: 21,
  benchmarks: [...sharedRuntime("api"), ...sharedRuntime("cli"), ...coldStart("store")],
});

/** Smells as [suite, kind, fails], underpowered left out (it depends on the rounds' noise). */
function summary(config: SmellConfig): [string | undefined, string, boolean][] {
  return smellsOf(SUITES, { ...config, ignore: [...(config.ignore ?? []), "underpowered"] }).map(
    (s) => [s.suite, s.kind, s.fails === true],
  );
}

describe("detectSmells with benchgate.yml's smells block", () => {
  it("raises each case in its own suite and sets the suite field", () => {
    expect(summary({})).toEqual([
      ["api", "identical-timings", false],
      ["cli", "identical-timings", false],
      ["store", "flat-scaling", false],
    ]);
    for (const s of smellsOf(SUITES))
      for (const id of s.benchmarks) expect(id.startsWith(`${s.suite ?? "?"}/`)).toBe(true);
  });

  it("`ignore` drops a kind in every suite", () => {
    expect(summary({ ignore: ["identical-timings"] })).toEqual([["store", "flat-scaling", false]]);
    const noisy = noisySuite([
      { id: "db/open", ns: 1e6 },
      { id: "db/query", ns: 2e6 },
    ]);
    expect(kindsOf(smellsOf(noisy))).toContain("underpowered");
    expect(kindsOf(smellsOf(noisy, { ignore: ["underpowered"] }))).not.toContain("underpowered");
  });

  it("a suite's `ignore` drops the kind in that suite only", () => {
    expect(summary({ suites: { api: { ignore: ["identical-timings"] } } })).toEqual([
      ["cli", "identical-timings", false],
      ["store", "flat-scaling", false],
    ]);
  });

  it("`fail-on` marks the kind's smells `fails: true` in every suite", () => {
    expect(summary({ "fail-on": ["identical-timings"] })).toEqual([
      ["api", "identical-timings", true],
      ["cli", "identical-timings", true],
      ["store", "flat-scaling", false],
    ]);
  });

  it("a suite's `fail-on` adds to the global one for that suite only", () => {
    expect(
      summary({
        "fail-on": ["flat-scaling"],
        suites: { cli: { "fail-on": ["identical-timings"] } },
      }),
    ).toEqual([
      ["api", "identical-timings", false],
      ["cli", "identical-timings", true],
      ["store", "flat-scaling", true],
    ]);
  });

  it("`ignore` wins over `fail-on`", () => {
    expect(
      summary({ ignore: ["flat-scaling"], suites: { store: { "fail-on": ["flat-scaling"] } } }),
    ).toEqual([
      ["api", "identical-timings", false],
      ["cli", "identical-timings", false],
    ]);
  });

  it("a suite that only base has raises nothing (smells are about head)", () => {
    expect(detectSmells({ base: SUITES.base, head: [], report: reportOf(SUITES) })).toEqual([]);
  });

  it("caps the smells at 200: the last one counts the rest and fails if any of them did", () => {
    const suites = shapedSuite({
      seed: 22,
      benchmarks: Array.from({ length: 201 }, (_, i) => ({
        id: `noop-${i}`,
        suite: `s${String(i).padStart(3, "0")}`,
        ns: 0.4,
        samples: 20,
      })),
    });
    const smells = smellsOf(suites, { ignore: ["underpowered"], "fail-on": ["timer-resolution"] });
    expect(smells).toHaveLength(200);
    expect(smells.slice(0, 199).every((s) => s.kind === "timer-resolution")).toBe(true);
    expect(smells[199]).toEqual({
      kind: "many-smells",
      benchmarks: [],
      evidence: "2 more smells not listed",
      fails: true,
    });
  });
});

describe("withSmells", () => {
  const report = reportOf(SUITES);
  const smells = smellsOf(SUITES);

  it("returns the report itself when there is no smell", () => {
    expect(withSmells(report, [])).toBe(report);
  });

  it("never fails the gate on smells without fail-on: they are warnings in the report", () => {
    expect(report.verdict).toBe("pass");
    expect(smells.some((s) => s.fails === true)).toBe(false);
    const warned = withSmells(report, smells);
    expect(warned.verdict).toBe("pass");
    expect(warned.reasons).toEqual(report.reasons);
    expect(warned.smells).toEqual(smells);
  });

  it("fails the gate with a reason when a smell of a fail-on kind is raised", () => {
    const failing = smellsOf(SUITES, { "fail-on": ["flat-scaling"] });
    const failed = withSmells(report, failing);
    expect(failed.verdict).toBe("fail");
    expect(failed.reasons).toEqual([
      ...report.reasons,
      "benchmark smell configured to fail: flat-scaling",
    ]);
    const both = withSmells(
      report,
      smellsOf(SUITES, { "fail-on": ["flat-scaling", "identical-timings"] }),
    );
    expect(both.reasons.at(-1)).toBe(
      "benchmark smells configured to fail: identical-timings, flat-scaling",
    );
  });

  it("keeps an inconclusive verdict when no smell fails", () => {
    const inconclusive = { ...report, verdict: "inconclusive" as const };
    expect(withSmells(inconclusive, smells).verdict).toBe("inconclusive");
  });
});

describe("gateReport", () => {
  const settings = resolveSettings();
  const now = new Date("2026-01-01T00:00:00Z");

  it("runs the detectors and folds fail-on smells into a valid report", () => {
    const passing = gateReport({ ...SUITES, settings, budgets: [], now });
    expect(passing.verdict).toBe("pass");
    expect(kindsOf(passing.smells)).toContain("flat-scaling");
    const failing = gateReport({
      ...SUITES,
      settings,
      budgets: [],
      smells: { suites: { store: { "fail-on": ["flat-scaling"] } } },
      now,
    });
    expect(failing.verdict).toBe("fail");
    expect(failing.reasons).toContain("benchmark smell configured to fail: flat-scaling");
  });

  it("lists at most 1000 benchmarks in a smell, as the report schema allows", () => {
    // 1001 noisy benchmarks: all underpowered. Sub-µs times keep identical-timings out.
    const many = shapedSuite({
      seed: 23,
      rounds: 3,
      roundNoise: 0.05,
      benchmarks: Array.from({ length: 1001 }, (_, i) => ({
        id: `many/b${i}`,
        ns: 100 + i * 0.8,
        samples: 10,
      })),
    });
    const report = gateReport({ ...many, settings, budgets: [], now });
    const weak = report.smells.find((s) => s.kind === "underpowered");
    expect(weak?.benchmarks).toHaveLength(1000);
    expect(weak?.evidence).toMatch(/^1001 of 1001 benchmarks/);
  });
});

describe("mergeSuites", () => {
  it("merges suites measured separately round by round", () => {
    const a = shapedSuite({ seed: 24, benchmarks: sharedRuntime("api") });
    const b = shapedSuite({ seed: 25, benchmarks: coldStart("store") });
    const merged = mergeSuites(a, b);
    expect(merged.head).toHaveLength(5);
    expect(merged.head[0]?.summary.benchmarks).toHaveLength(7);
    expect(kindsOf(smellsOf(merged, { ignore: ["underpowered"] }))).toEqual([
      "identical-timings",
      "flat-scaling",
    ]);
  });
});
