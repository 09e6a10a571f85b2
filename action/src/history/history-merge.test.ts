import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importGabDataText } from "./gab-import.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import type { BenchHistory, Series } from "../schemas/history.gen.ts";
import { serializeHistory } from "./history-json.ts";
import { seriesKey, upsertRecord, upsertRecords } from "./history-merge.ts";

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../test/fixtures/gab-data-js",
);
import type { HistoryRecord, RecordResult } from "./history-record.ts";

function sha(n: number): string {
  return n.toString(16).padStart(40, "0");
}

function series(id: string, unit = "ns"): Series {
  return { suite: "s", id, unit, direction: "smaller_is_better", origin: "benchgate" };
}

function result(id: string, median: number, unit = "ns"): RecordResult {
  return { series: series(id, unit), median, ciLow: median - 1, ciHigh: median + 1, budget: null };
}

function record(n: number, results: RecordResult[], message = `commit ${n}`): HistoryRecord {
  return {
    commit: {
      sha: sha(n),
      date: "2025-01-01T00:00:00Z",
      message,
      author: "a",
      recorded_at: "2025-01-01T00:00:00Z",
    },
    results,
  };
}

/** Applies records one by one, as successive runs would. */
function run(records: HistoryRecord[], maxCommits?: number): BenchHistory {
  let h: BenchHistory | undefined;
  for (const r of records)
    h = upsertRecord(h, r, maxCommits === undefined ? {} : { maxCommits }).history;
  return validateHistory(h, "test");
}

/** A commit's results as [id, median], through the catalogue. */
function points(h: BenchHistory, n: number): [string, number][] {
  const c = h.commits.find((x) => x.sha === sha(n));
  return (c?.results ?? []).map(([i, m]) => [h.series[i]?.id ?? "?", m]);
}

describe("upsertRecord", () => {
  it("starts a history and appends new SHAs in order, sharing series", () => {
    const h = run([record(1, [result("a", 10), result("b", 20)]), record(2, [result("a", 11)])]);
    expect(h.commits.map((c) => c.sha)).toEqual([sha(1), sha(2)]);
    expect(h.series.map((s) => s.id)).toEqual(["a", "b"]);
    expect(points(h, 2)).toEqual([["a", 11]]);
    expect(h.commits[0]?.results).toEqual([
      [0, 10, 9, 11, null],
      [1, 20, 19, 21, null],
    ]);
  });

  it("replaces a re-run SHA in place (H3) and reports it", () => {
    const first = run([record(1, [result("a", 10)]), record(2, [result("a", 11)])]);
    const again = upsertRecord(first, record(1, [result("a", 99)], "rerun"));
    expect(again.replaced).toEqual([sha(1)]);
    expect(again.added).toEqual([]);
    expect(again.history.commits.map((c) => [c.sha, c.message])).toEqual([
      [sha(1), "rerun"],
      [sha(2), "commit 2"],
    ]);
    expect(points(again.history, 1)).toEqual([["a", 99]]);
    // Re-running with identical data gives identical bytes.
    const twice = upsertRecord(again.history, record(1, [result("a", 99)], "rerun")).history;
    expect(serializeHistory(twice)).toBe(serializeHistory(again.history));
  });

  it("starts a new series when the unit changes", () => {
    const h = run([record(1, [result("a", 10)]), record(2, [result("a", 5, "B")])]);
    expect(h.series.map((s) => [s.id, s.unit])).toEqual([
      ["a", "ns"],
      ["a", "B"],
    ]);
  });

  it("drops only the oldest records, keeps the newest, and renumbers the series (H6)", () => {
    const h = run(
      [
        record(1, [result("old-only", 1), result("shared", 1)]),
        record(2, [result("shared", 2)]),
        record(3, [result("shared", 3), result("new", 3)]),
        record(4, [result("shared", 4)]),
      ],
      2,
    );
    expect(h.commits.map((c) => c.sha)).toEqual([sha(3), sha(4)]);
    expect(h.series.map((s) => s.id)).toEqual(["shared", "new"]);
    expect(points(h, 3)).toEqual([
      ["shared", 3],
      ["new", 3],
    ]);
    const one = upsertRecord(h, record(5, [result("shared", 5)]), { maxCommits: 1 });
    expect(one.dropped).toEqual([sha(3), sha(4)]);
    expect(one.history.commits.map((c) => c.sha)).toEqual([sha(5)]);
  });

  it("keeps an existing series' attributes and re-indexes imported extras", () => {
    const imported: BenchHistory = {
      schema_version: 1,
      series: [
        { suite: "s", id: "gone", unit: "ns", direction: "smaller_is_better" },
        { ...series("a"), origin: "github-action-benchmark", tool: "cargo" },
      ],
      commits: [
        {
          sha: sha(1),
          date: "2025-01-01T00:00:00Z",
          message: "m",
          author: "a",
          recorded_at: "2025-01-01T00:00:00Z",
          results: [
            [1, 10, null, null, null],
            [0, 3, null, null, null],
          ],
          extras: [[1, "± 2", null]],
        },
        {
          sha: sha(2),
          date: "2025-01-01T00:00:00Z",
          message: "m",
          author: "a",
          recorded_at: "2025-01-01T00:00:00Z",
          results: [[1, 11, null, null, null]],
          extras: [[1, "± 3", "x"]],
        },
      ],
    };
    const h = upsertRecord(validateHistory(imported, "in"), record(3, [result("a", 12)]), {
      maxCommits: 2,
    }).history;
    validateHistory(h, "out");
    expect(h.series).toEqual([
      {
        suite: "s",
        id: "a",
        unit: "ns",
        direction: "smaller_is_better",
        origin: "github-action-benchmark",
        tool: "cargo",
      },
    ]);
    expect(h.commits[0]?.extras).toEqual([[0, "± 3", "x"]]);
    expect(h.commits[1]?.results).toEqual([[0, 12, 11, 13, null]]);
  });

  it("is deterministic whatever the key order of its input", () => {
    const a = run([record(1, [result("b", 2), result("a", 1)])]);
    const shuffled = JSON.parse(
      JSON.stringify(a, (_k, v: unknown) =>
        v !== null && typeof v === "object" && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).reverse())
          : v,
      ),
    ) as BenchHistory;
    const next = record(2, [result("a", 3)]);
    expect(serializeHistory(upsertRecord(shuffled, next).history)).toBe(
      serializeHistory(upsertRecord(a, next).history),
    );
  });

  it("refuses a bad max-commits and a record with two results for one series", () => {
    expect(() => upsertRecord(undefined, record(1, []), { maxCommits: 0 })).toThrow(/max-commits/);
    expect(() => upsertRecord(undefined, record(1, [result("a", 1), result("a", 2)]))).toThrow(
      /two results/,
    );
  });
});

describe("upsertRecords", () => {
  it("applies many records in one pass, the last of a repeated SHA winning", () => {
    const out = upsertRecords(undefined, [
      record(1, [result("a", 1)]),
      record(2, [result("a", 2)]),
      record(1, [result("a", 3)]),
    ]);
    expect(out.added).toEqual([sha(1), sha(2)]);
    expect(out.replaced).toEqual([]);
    expect(points(out.history, 1)).toEqual([["a", 3]]);
  });
});

describe("serializeHistory", () => {
  it("is JSON with one line per series and per commit", () => {
    const h = run([record(1, [result("a", 1)]), record(2, [result("a", 2)])]);
    const text = serializeHistory(h);
    expect(JSON.parse(text)).toEqual(h);
    expect(text.split("\n").filter((l) => l.startsWith('    {"sha"'))).toHaveLength(2);
    expect(serializeHistory({ schema_version: 1, series: [], commits: [] })).toBe(
      '{\n  "schema_version": 1,\n  "series": [],\n  "commits": []\n}\n',
    );
  });
});

describe("reruns (earlier measurements of a commit, e.g. imported from github-action-benchmark)", () => {
  const text = readFileSync(
    path.join(FIXTURES, "structlog-sentry-logger-pytest-reruns.data.js"),
    "utf8",
  );
  /** Every value of a history, by commit, series key and measurement, for comparison. */
  function values(h: BenchHistory): string[] {
    const key = (i: number) => seriesKey(h.series[i] as Series);
    return h.commits
      .flatMap((c) => [
        ...c.results.map(([i, m]) => `${c.sha} ${key(i)} latest ${m}`),
        ...(c.reruns ?? []).flatMap((r) =>
          r.results.map(([i, m]) => `${c.sha} ${key(i)} ${r.recorded_at} ${m}`),
        ),
      ])
      .sort();
  }

  it("survive appends of other commits and retention's re-indexing of the catalogue", () => {
    const imported = importGabDataText(text, "structlog.data.js").history;
    expect(imported.commits.some((c) => (c.reruns?.length ?? 0) > 0)).toBe(true);
    // A benchgate run of a new commit; retention drops the oldest commit, so series only it
    // used leave the catalogue and every later index moves.
    const outcome = upsertRecord(imported, record(9999, [result("new-bench", 5)]), {
      maxCommits: imported.commits.length,
    });
    const appended = validateHistory(outcome.history, "appended");
    const [gone] = outcome.dropped;
    expect(gone).toBe(imported.commits[0]?.sha);
    expect(appended.series.length).toBeLessThanOrEqual(imported.series.length + 1);
    const kept = values(imported).filter((v) => !v.startsWith(gone ?? "-"));
    expect(values(appended).filter((v) => !v.includes("new-bench"))).toEqual(kept);
  });

  it("are kept when benchgate re-measures an imported commit, with the imported results as the newest rerun", () => {
    const imported = importGabDataText(text, "structlog.data.js").history;
    const target = imported.commits.find((c) => (c.reruns?.length ?? 0) > 0)!;
    const again = upsertRecord(imported, {
      ...record(0, [result("re-measured", 7)]),
      commit: { ...record(0, []).commit, sha: target.sha },
    }).history;
    validateHistory(again, "again");
    const commit = again.commits.find((c) => c.sha === target.sha)!;
    expect(commit.results.map(([i]) => again.series[i]?.id)).toEqual(["re-measured"]);
    // Every imported value of that commit is still there: the earlier runs as they were, and
    // the imported latest results as the newest rerun.
    const importedValues = (h: BenchHistory, sha: string) =>
      values(h)
        .filter((v) => v.startsWith(sha) && !v.includes("re-measured"))
        .map((v) => v.split(" ").at(-1) ?? "")
        .sort((a, b) => a.localeCompare(b));
    expect(importedValues(again, target.sha)).toEqual(importedValues(imported, target.sha));
    expect(commit.reruns?.at(-1)?.recorded_at).toBe(target.recorded_at);
    // A commit benchgate measured itself is simply replaced (a re-run's results are newer).
    const ours = run([record(5, [result("x", 1)])]);
    const rerun = upsertRecord(ours, record(5, [result("x", 2)])).history;
    expect(rerun.commits[0]?.reruns).toBeUndefined();
  });

  it("move with their series when retention re-indexes the catalogue", () => {
    const base = run([record(1, [result("only-in-1", 1)]), record(2, [result("b", 2)])]);
    // Commit 2 also has an earlier measurement of b (index 1 while only-in-1 is index 0).
    const withRerun: BenchHistory = {
      ...base,
      commits: base.commits.map((c) =>
        c.sha === sha(2)
          ? {
              ...c,
              reruns: [
                { recorded_at: "2024-12-31T00:00:00Z", results: [[1, 3, null, null, null]] },
              ],
            }
          : c,
      ),
    };
    validateHistory(withRerun, "with rerun");
    const after = validateHistory(
      upsertRecord(withRerun, record(3, [result("b", 4)]), { maxCommits: 2 }).history,
      "after",
    );
    expect(after.series.map((x) => x.id)).toEqual(["b"]);
    const two = after.commits.find((c) => c.sha === sha(2));
    expect(two?.reruns).toEqual([
      { recorded_at: "2024-12-31T00:00:00Z", results: [[0, 3, null, null, null]] },
    ]);
  });
});
