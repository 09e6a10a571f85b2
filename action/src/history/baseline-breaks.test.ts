import { describe, expect, it } from "vitest";
import { InputError } from "../errors.ts";
import { errorOf } from "../../test/support/input-error.ts";
import type { BenchHistory, Commit } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import {
  MAX_BREAK_REASON,
  breaksStillCutting,
  checkBreakRequest,
  resolveCommit,
  supersede,
} from "./baseline-breaks.ts";
import { serializeHistory } from "./history-json.ts";
import { upsertRecord } from "./history-merge.ts";

/** Distinct SHAs; 0x1a2b… and 0x1a2c… share their first three digits (for "nearest by SHA"). */
const SHAS = [
  "1a2b000000000000000000000000000000000000",
  "1a2c000000000000000000000000000000000000",
  "77ff000000000000000000000000000000000000",
  "8e9d000000000000000000000000000000000000",
  "8e9e000000000000000000000000000000000000",
];

function commit(i: number, results: Commit["results"]): Commit {
  return {
    sha: SHAS[i] as string,
    date: `2026-01-0${i + 1}T10:00:00Z`,
    message: `change ${i}`,
    author: "Ada",
    recorded_at: `2026-01-0${i + 1}T11:00:00Z`,
    results,
  };
}

/** Three series; "parse/small" and "parse/large" run on every commit, "encode" from commit 3. */
function history(): BenchHistory {
  return validateHistory(
    {
      schema_version: 1,
      updated_at: "2026-01-05T11:00:00Z",
      series: [
        { suite: "p", id: "parse/small", unit: "ns", direction: "smaller_is_better" },
        { suite: "p", id: "parse/large", unit: "ns", direction: "smaller_is_better" },
        { suite: "e", id: "encode", unit: "ns", direction: "smaller_is_better" },
      ],
      commits: SHAS.map((_, i) =>
        commit(i, [
          [0, 100 + i, null, null, null],
          [1, 1000 + i, null, null, null],
          ...(i >= 3 ? ([[2, 50, null, null, null]] as Commit["results"]) : []),
        ]),
      ),
    },
    "history.json",
  );
}

const OPTIONS = { recordedAt: "2026-02-01T00:00:00Z", source: "history.json" };

describe("checkBreakRequest", () => {
  const ok = { benchmark: "parse/*", from: "1A2C000", reason: "  switched to counts  " };

  it("keeps the glob as written, lowercases the SHA and trims the reason", () => {
    expect(checkBreakRequest(ok)).toEqual({
      benchmark: "parse/*",
      from: "1a2c000",
      reason: "switched to counts",
    });
  });

  it.each([
    [{ benchmark: undefined }, /ID-GLOB is required/],
    [{ benchmark: "  " }, /ID-GLOB is required/],
    [{ benchmark: "a".repeat(513) }, /longer than 512/],
    [{ benchmark: "parse\u001b[2J/*" }, /control character/],
    [{ from: undefined }, /--from SHA is required/],
    [{ from: "1a2b3c" }, /7 to 40 hex digits/],
    [{ from: "HEAD~1" }, /not a commit SHA/],
    [{ from: "1".repeat(41) }, /not a commit SHA/],
    [{ reason: undefined }, /--reason TEXT is required/],
    [{ reason: " \t " }, /--reason TEXT is required/],
    [{ reason: "two\nlines" }, /plain text on one line/],
    [{ reason: "bell\u0007" }, /plain text/],
    [{ reason: "C1 \u0085 next line" }, /plain text/],
    [{ reason: "line\u2028separator" }, /plain text/],
    [{ reason: "evil\u202Etxt.exe" }, /direction-changing/],
    [{ reason: "zero\u200Bwidth" }, /invisible/],
    [{ reason: "lone \uD800 surrogate" }, /plain text/],
    [{ reason: "é".repeat(MAX_BREAK_REASON + 1) }, /has 301 characters; at most 300/],
  ])("refuses %j", (change, message) => {
    expect(errorOf(() => checkBreakRequest({ ...ok, ...change })).message).toMatch(message);
  });

  it("counts the reason's length in characters, not UTF-16 units", () => {
    const reason = "🦀".repeat(MAX_BREAK_REASON);
    expect(checkBreakRequest({ ...ok, reason }).reason).toBe(reason);
  });
});

describe("resolveCommit", () => {
  it("finds a commit by its full SHA or an unambiguous prefix", () => {
    expect(resolveCommit(history(), SHAS[2] as string, "h")).toBe(2);
    expect(resolveCommit(history(), "8e9d000", "h")).toBe(3);
  });

  it("refuses an ambiguous prefix, naming the candidates", () => {
    const two = {
      ...history(),
      commits: [
        commit(0, []),
        { ...commit(1, []), sha: "1a2b000000000000000000000000000000000001" },
      ],
    };
    const error = errorOf(() => resolveCommit(two, "1a2b000", "h"));
    expect(error.message).toMatch(/ambiguous: 2 commits start with it/);
    expect(error.message).toContain('1a2b000000 (#1 "change 0")');
    expect(error.message).toContain("give more digits");
  });

  it("names the commits nearest by SHA and the newest when the commit is not recorded", () => {
    const error = errorOf(() => resolveCommit(history(), "1a2d999", "gh-pages:b/history.json"));
    expect(error.source).toBe("gh-pages:b/history.json");
    expect(error.message).toMatch(/^--from 1a2d999 is not a commit of the history \(5 recorded;/);
    // 1a2b… and 1a2c… share three digits with it, 77ff… and 8e9… none.
    expect(error.message).toMatch(
      /nearest by SHA: 1a2c000000 \(#2 "change 1"\), 1a2b000000 \(#1 "change 0"\); newest: 8e9e000000 \(#5 "change 4"\), 8e9d000000 \(#4 "change 3"\), 77ff000000 \(#3 "change 2"\)$/,
    );
    const empty = { ...history(), commits: [] };
    expect(errorOf(() => resolveCommit(empty, "1a2b000", "h")).message).toMatch(/no commits yet/);
  });
});

describe("supersede", () => {
  const request = { benchmark: "parse/*", from: "8e9d000", reason: "new parser harness" };

  it("adds the mark with the full SHA and says which series it cuts", () => {
    const before = history();
    const outcome = supersede(before, request, OPTIONS);
    expect(outcome.status).toBe("added");
    expect(outcome.at).toBe(3);
    expect(outcome.matched.map((s) => s.id)).toEqual(["parse/small", "parse/large"]);
    expect(outcome.cut).toBe(2);
    expect(outcome.history.breaks).toEqual([
      {
        benchmark: "parse/*",
        from: SHAS[3],
        reason: "new parser harness",
        recorded_at: OPTIONS.recordedAt,
      },
    ]);
    expect(outcome.history.updated_at).toBe(OPTIONS.recordedAt);
    // Records are never touched, and the input is not mutated.
    expect(outcome.history.commits).toBe(before.commits);
    expect(outcome.history.series).toBe(before.series);
    expect(before.breaks).toBeUndefined();
    expect(() => validateHistory(outcome.history, "new")).not.toThrow();
  });

  it("is idempotent: the same glob and commit again return the very same history", () => {
    const once = supersede(history(), request, OPTIONS).history;
    const again = supersede(
      once,
      { ...request, from: SHAS[3] as string },
      {
        ...OPTIONS,
        recordedAt: "2026-03-01T00:00:00Z",
      },
    );
    expect(again.status).toBe("unchanged");
    expect(again.history).toBe(once);
    expect(serializeHistory(again.history)).toBe(serializeHistory(once));
  });

  it("changes only the reason when the same mark is given another one", () => {
    const once = supersede(history(), request, OPTIONS).history;
    const other = supersede(
      once,
      { benchmark: "encode", from: SHAS[1] as string, reason: "x" },
      OPTIONS,
    );
    const fixed = supersede(
      other.history,
      { ...request, reason: "criterion 0.6 harness" },
      {
        ...OPTIONS,
        recordedAt: "2026-03-01T00:00:00Z",
      },
    );
    expect(fixed.status).toBe("updated");
    expect(fixed.history.breaks?.map((b) => [b.benchmark, b.reason, b.recorded_at])).toEqual([
      ["parse/*", "criterion 0.6 harness", "2026-03-01T00:00:00Z"],
      ["encode", "x", OPTIONS.recordedAt],
    ]);
  });

  it("counts only the series with results on both sides as cut", () => {
    // encode runs from commit 3 on: marked at 3, nothing of it lies before the mark.
    const outcome = supersede(history(), { ...request, benchmark: "encode" }, OPTIONS);
    expect(outcome.status).toBe("added");
    expect(outcome.cut).toBe(0);
  });

  it("refuses a glob that matches no series' whole id, and an unrecorded commit", () => {
    for (const benchmark of ["parse", "Parse/*", "*/tiny"]) {
      const error = errorOf(() => supersede(history(), { ...request, benchmark }, OPTIONS));
      expect(error.message).toMatch(/matches none of the 3 series' ids/);
      expect(error.source).toBe("history.json");
    }
    expect(
      errorOf(() => supersede(history(), { ...request, from: "ffffffff" }, OPTIONS)).message,
    ).toMatch(/is not a commit of the history/);
  });
});

describe("marks in the stored history", () => {
  it("are written after the commits, one per line, and read back as they were", () => {
    const marked = supersede(
      history(),
      { benchmark: "parse/*", from: "8e9d000", reason: 'a "quoted" <reason> & more' },
      OPTIONS,
    ).history;
    const text = serializeHistory(marked);
    expect(
      text.endsWith(`  ],\n  "breaks": [\n    ${JSON.stringify(marked.breaks?.[0])}\n  ]\n}\n`),
    ).toBe(true);
    expect(validateHistory(JSON.parse(text), "round trip")).toEqual(marked);
    // A history without marks keeps exactly the bytes it had.
    expect(serializeHistory(history())).not.toContain("breaks");
  });

  it("are refused by the schema with control or direction-changing characters", () => {
    const marked = supersede(
      history(),
      { benchmark: "parse/*", from: "8e9d000", reason: "ok" },
      OPTIONS,
    ).history;
    const bad = (reason: string): unknown => ({
      ...marked,
      breaks: [{ ...marked.breaks?.[0], reason }],
    });
    for (const reason of ["a\nb", "a\u202Eb", "a\u200Bb", ""])
      expect(() => validateHistory(bad(reason), "h"), JSON.stringify(reason)).toThrow(InputError);
    expect(errorOf(() => validateHistory(bad("r".repeat(301)), "h")).jsonPath).toBe(
      "/breaks/0/reason",
    );
  });

  it("survive an append and are dropped with their commit by retention", () => {
    const marked = supersede(
      history(),
      { benchmark: "parse/*", from: SHAS[1] as string, reason: "r" },
      OPTIONS,
    ).history;
    const record = {
      commit: { ...commit(0, []), sha: "9".repeat(40) },
      results: [],
    };
    const kept = upsertRecord(marked, record).history;
    expect(kept.breaks).toEqual(marked.breaks);
    // Keeping the newest 4 of 6 drops commits 0 and 1: the mark's commit is gone, and every
    // record left is on its new side.
    const trimmed = upsertRecord(marked, record, { maxCommits: 4 }).history;
    expect(trimmed.commits.map((c) => c.sha)).not.toContain(SHAS[1]);
    expect(trimmed.breaks).toBeUndefined();
    expect(breaksStillCutting(marked.breaks, trimmed.commits)).toEqual([]);
  });
});
