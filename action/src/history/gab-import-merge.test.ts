// `history import --into`: gab runs merged into an existing history (gab-import-merge.ts).
import { describe, expect, it } from "vitest";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import { importGabDataText } from "./gab-import.ts";
import {
  A,
  B,
  C,
  RERUNS,
  SHOGI,
  TWO_SUITES,
  gabFixture as fixture,
  gabRun as run,
  runsOf,
  syntheticDataJs,
  valuesInText,
} from "../../test/support/gab-data-js.ts";

describe("merging into an existing history", () => {
  /** A benchgate history with its own record for B (recorded after every gab run) and one for C. */
  function existing(): BenchHistory {
    return validateHistory(
      {
        schema_version: 1,
        series: [
          { suite: "s", id: "x", unit: "ns", direction: "smaller_is_better", origin: "benchgate" },
        ],
        commits: [
          {
            sha: B,
            date: "2024-01-02T00:00:00Z",
            message: "ours",
            author: "us",
            recorded_at: "2024-01-02T00:00:00.000Z",
            rounds: 5,
            results: [[0, 100, 90, 110, null]],
          },
          {
            sha: C,
            date: "2024-01-03T00:00:00Z",
            message: "later",
            author: "us",
            recorded_at: "2024-01-03T00:00:00.000Z",
            results: [[0, 120, null, null, null]],
          },
        ],
      },
      "existing",
    );
  }

  it("benchgate's own record stays the results; the file's runs of it become reruns", () => {
    const before = existing();
    const snapshot = JSON.stringify(before);
    const text = syntheticDataJs([
      run(A, Date.parse("2024-01-01T00:00:00Z"), "cargo", [{ name: "x", value: 7, unit: "ns" }]),
      run(B, Date.parse("2024-01-01T12:00:00Z"), "cargo", [
        { name: "x", value: 8, unit: "ns" },
        { name: "y", value: 9, unit: "ns", range: "± 1" },
      ]),
      // Recorded after benchgate's measurement, and still a rerun: see gab-import-merge.ts.
      run(B, Date.parse("2024-01-05T00:00:00Z"), "cargo", [{ name: "x", value: 6, unit: "ns" }]),
    ]);
    const { history, counts, warnings } = importGabDataText(text, "t", {
      existing: before,
      now: "2024-02-01T00:00:00.000Z",
    });
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(history.commits.map((c) => c.sha)).toEqual([A, B, C]);
    expect(history.commits[1]).toEqual({
      ...before.commits[0],
      reruns: [
        {
          recorded_at: "2024-01-01T12:00:00.000Z",
          results: [
            [0, 8, null, null, null],
            [1, 9, null, null, null],
          ],
          extras: [[1, "± 1", null]],
        },
        { recorded_at: "2024-01-05T00:00:00.000Z", results: [[0, 6, null, null, null]] },
      ],
    });
    // "x" in ns, smaller is better, is the same series as benchgate's own: it is reused.
    expect(history.series).toHaveLength(2);
    expect(history.commits[0]?.results).toEqual([[0, 7, null, null, null]]);
    expect(history.updated_at).toBe("2024-02-01T00:00:00.000Z");
    expect(counts).toMatchObject({
      values: 4,
      points: 4,
      reruns: 2,
      alreadyPresent: 0,
      newCommits: 1,
      mergedCommits: 1,
      newSeries: 1,
    });
    expect(warnings).toEqual([]);

    // The same file again adds nothing.
    const again = importGabDataText(text, "t", { existing: history });
    expect(again.history).toEqual(history);
    expect(again.counts).toMatchObject({ points: 0, reruns: 0, alreadyPresent: 4 });
    expect(again.warnings).toEqual([
      "4 values already in the history: runs with the same suite and values were imported before, and are not added twice",
    ]);
  });

  it.each([SHOGI, RERUNS, TWO_SUITES])(
    "%s imported twice: the second time adds nothing",
    (name) => {
      const text = fixture(name);
      const once = importGabDataText(text, name).history;
      const twice = importGabDataText(text, name, { existing: once });
      expect(twice.history).toEqual(once);
      const values = valuesInText(text).length;
      expect(twice.counts).toMatchObject({ points: 0, reruns: 0, alreadyPresent: values });
      expect(twice.counts.newCommits).toBe(0);
    },
  );

  it("a grown data.js imported into an earlier import: the new latest run becomes the results", () => {
    const x = (value: number): object[] => [{ name: "x", value, unit: "ns" }];
    const early = [run(A, 1000, "cargo", x(1)), run(B, 2000, "cargo", x(2))];
    const grown = [...early, run(C, 3000, "cargo", x(3)), run(A, 4000, "cargo", x(4))];
    const first = importGabDataText(syntheticDataJs(early), "early").history;
    const merged = importGabDataText(syntheticDataJs(grown), "grown", { existing: first });
    expect(merged.history).toEqual(importGabDataText(syntheticDataJs(grown), "grown").history);
    expect(runsOf(merged.history)).toEqual([
      ["aaaaaaa", "1970-01-01T00:00:01.000Z", [1]],
      ["aaaaaaa", "1970-01-01T00:00:04.000Z", [4]],
      ["bbbbbbb", "1970-01-01T00:00:02.000Z", [2]],
      ["ccccccc", "1970-01-01T00:00:03.000Z", [3]],
    ]);
    expect(merged.counts).toMatchObject({ values: 4, points: 2, reruns: 1, alreadyPresent: 2 });
  });
});
