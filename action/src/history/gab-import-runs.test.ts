// The rule that turns a commit's gab entries into results and reruns (gab-import-runs.ts).
import { describe, expect, it } from "vitest";
import { GAB_SCRIPT_PREFIX } from "./gab-data-js.ts";
import { importGabDataText } from "./gab-import.ts";
import { A, B, gabRun as run, runsOf, syntheticDataJs } from "../../test/support/gab-data-js.ts";

describe("re-runs: every entry is kept", () => {
  const ns = (name: string, value: number): object => ({ name, value, unit: "ns" });

  it("a re-run that measured only some benches is the results; the rest stay in its rerun", () => {
    const text = syntheticDataJs([
      run(A, 1000, "cargo", [ns("x", 1), ns("y", 2)]),
      run(A, 2000, "cargo", [ns("x", 3)]),
    ]);
    const { history, counts } = importGabDataText(text, "t");
    expect(history.commits[0]).toMatchObject({
      recorded_at: "1970-01-01T00:00:02.000Z",
      results: [[0, 3, null, null, null]],
      reruns: [
        {
          recorded_at: "1970-01-01T00:00:01.000Z",
          results: [
            [0, 1, null, null, null],
            [1, 2, null, null, null],
          ],
        },
      ],
    });
    expect(counts).toMatchObject({ values: 3, points: 3, reruns: 1 });
  });

  it("runs are ordered by date, so one listed out of order is not the latest", () => {
    const text = syntheticDataJs([
      run(A, 9000, "cargo", [ns("x", 9)]),
      run(A, 1000, "cargo", [ns("x", 1)]),
    ]);
    const { history } = importGabDataText(text, "t");
    expect(runsOf(history)).toEqual([
      ["aaaaaaa", "1970-01-01T00:00:01.000Z", [1]],
      ["aaaaaaa", "1970-01-01T00:00:09.000Z", [9]],
    ]);
  });

  it("suites are aligned on their latest run: the results hold every suite's latest values", () => {
    const data =
      GAB_SCRIPT_PREFIX +
      JSON.stringify({
        entries: {
          s: [run(A, 1000, "cargo", [ns("x", 1)]), run(B, 2000, "cargo", [ns("x", 2)])],
          // Three runs of A: the first two are reruns, the third joins s's only run of A.
          t: [1500, 3000, 4000].map((date) => run(A, date, "cargo", [ns("y", date)])),
        },
      });
    const { history, counts, warnings } = importGabDataText(data, "t");
    expect(history.commits.map((c) => c.sha)).toEqual([A, B]);
    const [a] = history.commits;
    expect(a?.results).toEqual([
      [0, 1, null, null, null],
      [1, 4000, null, null, null],
    ]);
    expect(a?.recorded_at).toBe("1970-01-01T00:00:04.000Z");
    expect(a?.reruns?.map((r) => [r.recorded_at, r.results])).toEqual([
      ["1970-01-01T00:00:01.500Z", [[1, 1500, null, null, null]]],
      ["1970-01-01T00:00:03.000Z", [[1, 3000, null, null, null]]],
    ]);
    expect(counts).toMatchObject({ values: 5, points: 5, reruns: 2, collapsedDates: 1 });
    expect(warnings.join("\n")).toMatch(/1 run of several suites on one commit had entries/);
  });

  it("an entry holding only nulls is no run", () => {
    const text = syntheticDataJs([
      run(A, 1000, "cargo", [ns("x", 1)]),
      run(A, 2000, "cargo", [{ name: "x", value: null, unit: "ns" }]),
    ]);
    const { history, counts } = importGabDataText(text, "t");
    expect(history.commits[0]?.reruns).toBeUndefined();
    expect(history.commits[0]?.results).toEqual([[0, 1, null, null, null]]);
    expect(counts).toMatchObject({ values: 2, points: 1, nullValues: 1, reruns: 0 });
  });

  it("refuses a commit with more runs than the history holds, naming it", () => {
    const runs = Array.from({ length: 1002 }, (_, i) => run(A, i, "cargo", [ns("x", i)]));
    expect(() => importGabDataText(syntheticDataJs(runs), "t")).toThrow(
      new RegExp(`commit ${A} has 1002 runs; the history keeps at most 1001 measurements`),
    );
    const fits = importGabDataText(syntheticDataJs(runs.slice(1)), "t");
    expect(fits.history.commits[0]?.reruns).toHaveLength(1000);
  });
});
