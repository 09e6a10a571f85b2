import { describe, expect, it } from "vitest";
import type { BenchHistory, Commit } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import { GAB_SCRIPT_PREFIX } from "./gab-data-js.ts";
import { importGabDataText, type GabImportResult } from "./gab-import.ts";
import {
  A,
  B,
  RERUNS,
  SHOGI,
  TWO_SUITES,
  gabFixture as fixture,
  gabRun as run,
  runsOf,
  syntheticDataJs,
  valuesInText,
} from "../../test/support/gab-data-js.ts";

/** Every median in the history: the commits' results and their reruns'. */
function pointsOf(history: BenchHistory): number[] {
  return history.commits.flatMap((c) =>
    [c, ...(c.reruns ?? [])].flatMap((m) => m.results.map(([, median]) => median)),
  );
}

const byNumber = (a: number, b: number): number => a - b;
const importFixture = (name: string): GabImportResult => importGabDataText(fixture(name), name);

describe("importing real data.js files", () => {
  it.each([SHOGI, RERUNS, TWO_SUITES])("%s: every value becomes a point, exactly", (name) => {
    const text = fixture(name);
    const expected = valuesInText(text);
    const { history, counts, warnings } = importFixture(name);
    expect(expected.every((v) => v !== null)).toBe(true);
    expect(pointsOf(history).sort(byNumber)).toEqual((expected as number[]).sort(byNumber));
    expect(counts.values).toBe(expected.length);
    expect(counts.points).toBe(expected.length);
    expect(counts).toMatchObject({ nullValues: 0, duplicateNames: 0, alreadyPresent: 0 });
    expect(warnings.join("\n")).not.toMatch(/skipped|already in the history/);
    expect(validateHistory(history, name)).toBe(history);
  });

  it("shogi_core (cargo): series, commits in time order, metadata and range text", () => {
    const { history, counts } = importFixture(SHOGI);
    expect(counts).toMatchObject({ suites: 1, series: 5, commits: 3, newCommits: 3 });
    expect(history.series[0]).toEqual({
      suite: "Benchmark result (shogi_legality_lite)",
      id: "bitboard::tests::pop_bench",
      unit: "ns/iter",
      direction: "smaller_is_better",
      origin: "github-action-benchmark",
      tool: "cargo",
    });
    const [first, , last] = history.commits as [Commit, Commit, Commit];
    expect(first).toMatchObject({
      sha: "4345684813975ee7255514cacaca671dbad719f3",
      date: "2022-06-03T23:16:14+09:00",
      message: "Merge pull request #30 from rust-shogi-crates/fix/publishing-benchmark-results",
      author: "Hiroki Kobayashi",
      recorded_at: new Date(1654265838841).toISOString(),
      url: "https://github.com/rust-shogi-crates/shogi_core/commit/4345684813975ee7255514cacaca671dbad719f3",
    });
    expect(first.results[0]).toEqual([0, 86, null, null, null]);
    expect(first.extras?.[0]).toEqual([0, "± 0", null]);
    expect(last.results.map(([, v]) => v)).toEqual([98, 20253, 19035, 20540, 20297]);
  });

  it("opentelemetry (two suites, one commit): one record holding both suites' points", () => {
    const { history, counts, warnings } = importFixture(TWO_SUITES);
    expect(counts).toMatchObject({ suites: 2, series: 4, commits: 1, points: 4, reruns: 0 });
    expect(history.commits).toHaveLength(1);
    // One run of both suites, 4 s apart: not a rerun, and timed by its latest entry.
    expect(history.commits[0]?.reruns).toBeUndefined();
    expect(history.commits[0]?.recorded_at).toBe(new Date(1611759708831).toISOString());
    expect(new Set(history.series.map((s) => s.suite)).size).toBe(2);
    expect(history.series.every((s) => s.direction === "bigger_is_better")).toBe(true);
    expect(history.commits[0]?.extras?.[1]).toEqual([
      1,
      "stddev: 3.6049299219744885e-7",
      "mean: 5.617983944276559 usec\nrounds: 59169",
    ]);
    expect(warnings).toContain(
      "1 run of several suites on one commit had entries at different times; each keeps its latest entry's time",
    );
  });

  it("structlog (re-runs of one commit): the latest run is the results, the earlier ones reruns", () => {
    const { history, counts, warnings } = importFixture(RERUNS);
    expect(counts).toMatchObject({ commits: 2, points: 10, reruns: 3, values: 10 });
    expect(runsOf(history)).toEqual([
      ["f14106e", "2021-09-13T22:21:38.058Z", [118.47025888388637, 24.876133748972727]],
      ["f14106e", "2021-09-13T22:27:43.252Z", [68.34400590631773, 13.187793078856053]],
      ["f14106e", "2021-09-13T22:27:43.558Z", [55.710616772238374, 9.944127675638468]],
      ["f405cc0", "2021-09-14T06:46:43.846Z", [74.63950581624248, 18.48122936250059]],
      ["f405cc0", "2021-09-14T06:55:24.046Z", [69.11193325515049, 10.60676093798652]],
    ]);
    // Each run keeps its own range and extra text.
    expect(history.commits[0]?.reruns?.[0]?.extras?.[1]).toEqual([
      1,
      "stddev: 0.0000757839333020013",
      "mean: 40.199172833330486 msec\nrounds: 12",
    ]);
    expect(history.commits[0]?.message).toBe(
      "\u{1F477}\u200D\u2640\uFE0F \u{1F4DD} Add Performance Testing and Benchmarks",
    );
    expect(warnings).toEqual([]);
  });

  it("reads the external JSON form to the same history as data.js", () => {
    const text = fixture(SHOGI);
    const external = text.slice(GAB_SCRIPT_PREFIX.length);
    const a = importGabDataText(text, "a");
    const b = importGabDataText(external, "b");
    expect(b.data.form).toBe("external-json");
    expect(b.history).toEqual(a.history);
  });
});

describe("directions", () => {
  it.each([
    ["cargo", "ns/iter", "smaller_is_better", undefined],
    ["pytest", "iter/sec", "bigger_is_better", undefined],
    ["customBiggerIsBetter", "points", "bigger_is_better", undefined],
    ["customSmallerIsBetter", "B", "smaller_is_better", undefined],
    ["customBiggerIsBetter", "ms", "smaller_is_better", /take their direction from the unit/],
    ["jmh", "ops/s", "bigger_is_better", /tool "jmh" with unit "ops\/s" → bigger_is_better/],
    ["hyperspeed", "ns", "smaller_is_better", /a tool gab does not define/],
    ["hyperspeed", "score", "smaller_is_better", /a tool gab does not define/],
  ])("%s with %s → %s", (tool, unit, direction, warning) => {
    const text = syntheticDataJs([run(A, 1, tool, [{ name: "x", value: 1, unit }])]);
    const { history, warnings } = importGabDataText(text, "t");
    expect(history.series[0]?.direction).toBe(direction);
    if (warning === undefined) expect(warnings.join("\n")).not.toMatch(/direction|tool/);
    else expect(warnings.join("\n")).toMatch(warning);
  });
});

describe("what cannot be kept is reported, never dropped silently", () => {
  it("null values, over-long texts, non-https URLs and message bodies", () => {
    const text = syntheticDataJs([
      {
        ...run(A, 5, "cargo", [
          { name: "x", value: null, unit: "ns" },
          { name: "y", value: 2, unit: "ns", extra: "e".repeat(5000), range: "r".repeat(300) },
        ]),
        commit: {
          id: A,
          message: `${"m".repeat(1100)}\nbody`,
          timestamp: "2024-01-01T00:00:00Z",
          url: "javascript:alert(1)",
        },
      },
    ]);
    const { history, counts, warnings } = importGabDataText(text, "t");
    expect(counts).toMatchObject({ values: 2, points: 1, nullValues: 1, urlsDropped: 1 });
    const commit = history.commits[0];
    expect(commit?.url).toBeUndefined();
    expect(Array.from(commit?.message ?? "")).toHaveLength(1024);
    expect(commit?.extras?.[0]?.[1]).toHaveLength(256);
    expect(commit?.extras?.[0]?.[2]).toHaveLength(4096);
    const all = warnings.join("\n");
    expect(all).toMatch(/1 value stored as null .* skipped: "s" \/ "x" at aaaaaaaa/);
    expect(all).toMatch(/1 commit URL left out/);
    expect(all).toMatch(/1 commit message kept to the first line/);
    expect(all).toMatch(/1 message text shortened/);
    expect(all).toMatch(/1 range text shortened/);
    expect(all).toMatch(/1 extra text shortened/);
  });

  it("a bench listed twice in one entry keeps the first value and reports the second", () => {
    const text = syntheticDataJs([
      run(A, 1, "cargo", [
        { name: "x", value: 1, unit: "ns" },
        { name: "x", value: 2, unit: "ns" },
      ]),
    ]);
    const { history, counts, warnings } = importGabDataText(text, "t");
    expect(history.commits[0]?.results).toEqual([[0, 1, null, null, null]]);
    expect(counts).toMatchObject({ values: 2, points: 1, duplicateNames: 1 });
    expect(warnings.join("\n")).toMatch(
      /1 value skipped: the bench appears again in the same entry.*"s" \/ "x" at aaaaaaaa/,
    );
  });

  it("a unit change starts a new series instead of mixing numbers", () => {
    const text = syntheticDataJs([
      run(A, 1, "cargo", [{ name: "x", value: 1, unit: "ns/iter" }]),
      run(B, 2, "cargo", [{ name: "x", value: 1, unit: "us/iter" }]),
    ]);
    expect(importGabDataText(text, "t").history.series.map((s) => s.unit)).toEqual([
      "ns/iter",
      "us/iter",
    ]);
  });

  it("script text in names and messages stays text", () => {
    const hostile = `</script><script>alert(1)</script>"; window.pwned = 1; //`;
    const text = syntheticDataJs(
      [
        {
          ...run(A, 1, "cargo", [{ name: hostile, value: 1, unit: "ns" }]),
          commit: { id: A, message: hostile, timestamp: "2024-01-01T00:00:00Z" },
        },
      ],
      hostile,
    );
    const { history } = importGabDataText(text, "t");
    expect(history.series[0]).toMatchObject({ suite: hostile, id: hostile });
    expect(history.commits[0]?.message).toBe(hostile);
  });
});
