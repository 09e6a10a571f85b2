import { describe, expect, it } from "vitest";
import type { BenchHistory, Commit } from "../schemas/history.gen.ts";
import { buildPageModel, httpsUrl } from "./page-data.ts";
import { scriptAssignment } from "./script-data.ts";

function commit(i: number, fields: Partial<Commit> = {}): Commit {
  const sha = String(i).padStart(40, "0");
  return {
    sha,
    date: `2026-01-${String(i + 1).padStart(2, "0")}T10:00:00Z`,
    message: `change ${i}`,
    author: "Ada",
    url: `https://github.com/o/r/commit/${sha}`,
    recorded_at: "2026-02-01T00:00:00Z",
    results: [],
    ...fields,
  };
}

function history(commits: Commit[]): BenchHistory {
  return {
    schema_version: 1,
    series: [
      { suite: "s", id: "early", unit: "ns", direction: "smaller_is_better" },
      { suite: "s", id: "late", unit: "MiB/s", direction: "bigger_is_better" },
      {
        suite: "gab",
        id: "imported",
        unit: "ns/iter",
        direction: "smaller_is_better",
        origin: "github-action-benchmark",
        tool: "cargo",
      },
    ],
    commits,
  };
}

describe("buildPageModel", () => {
  it("aligns each series by commit index from its first to its last result", () => {
    const commits = [0, 1, 2, 3].map((i) =>
      commit(i, {
        results: [
          ...(i === 2 ? [] : ([[0, 10 + i, 9, 11 + i, 20]] as Commit["results"])),
          ...(i >= 1 && i <= 2 ? ([[1, 1 / 3, null, null, null]] as Commit["results"]) : []),
        ],
      }),
    );
    const model = buildPageModel(history(commits), { title: "t" });
    const [early, late, imported] = model.series;
    expect(early).toMatchObject({ start: 0, median: [10, 11, null, 13], low: [9, 9, null, 9] });
    expect(early?.budget).toEqual([20, 20, null, 20]);
    // Six significant digits for display; no interval at all → null, not an array of nulls.
    expect(late).toMatchObject({ start: 1, median: [0.333333, 0.333333], low: null, high: null });
    expect(late?.direction).toBe("bigger_is_better");
    expect(imported).toMatchObject({ importedFrom: "cargo", median: [] });
    expect(early?.importedFrom).toBeNull();
  });

  it("keeps the first line of messages and only https links", () => {
    const commits = [
      commit(0, { message: "first\nsecond" }),
      commit(1, { message: "a\u2028b", url: "javascript:alert(1)" }),
      commit(2, { url: "http://example.com/x" }),
      commit(3),
    ];
    delete commits[3]?.url;
    const model = buildPageModel(history(commits), { title: "t" });
    expect(model.commits.message.slice(0, 2)).toEqual(["first", "a"]);
    expect(model.commits.url).toEqual([commits[0]?.url, null, null, null]);
    expect(httpsUrl("https://github.com/o/r")).toBe("https://github.com/o/r");
    expect(httpsUrl("not a url")).toBeNull();
  });

  it("lists environment changes between commits with fingerprints, with the fields that differ", () => {
    // The load average differs run to run and is not part of the fingerprint: never listed.
    const env = (kernel: string, load: number): NonNullable<Commit["environment"]> => ({
      kernel,
      cpu_model: "EPYC",
      load_average: [load, 0, 0],
    });
    const commits = [
      commit(0, { fingerprint: "a".repeat(16), environment: env("6.1", 0.5) }),
      commit(1),
      commit(2, { fingerprint: "a".repeat(16), environment: env("6.1", 1.5) }),
      commit(3, { fingerprint: "b".repeat(16), environment: env("6.8", 2.5) }),
      commit(4, { fingerprint: "c".repeat(16) }),
    ];
    expect(buildPageModel(history(commits), { title: "t" }).environmentChanges).toEqual([
      { index: 3, fields: [{ name: "kernel", before: "6.1", after: "6.8" }] },
      { index: 4, fields: [] },
    ]);
  });

  it("carries github-action-benchmark's range and extra as notes, and the change points", () => {
    const commits = Array.from({ length: 40 }, (_, i) =>
      commit(i, {
        results: [[2, i < 20 ? 100 + (i % 3) : 150 + (i % 3), null, null, null]],
        extras: [[2, "± 4", i === 0 ? "3 samples" : null]],
      }),
    );
    const [, , imported] = buildPageModel(history(commits), { title: "t" }).series;
    expect(imported?.notes?.slice(0, 2)).toEqual(["± 4 · 3 samples", "± 4"]);
    expect(imported?.changes).toEqual([
      { index: 20, before: 101, after: 151, step: expect.closeTo(0.495, 3) as number },
    ]);
  });

  it("finds change points between superseded baselines only, and draws each break inside a series", () => {
    // "early" switched method at commit 20 (3× the old numbers) and regressed 30 % at commit 45;
    // "late" starts at commit 25, after the mark, so the mark cuts nothing of it.
    const commits = Array.from({ length: 70 }, (_, i) =>
      commit(i, {
        results: [
          [0, (i < 20 ? 100 : i < 45 ? 300 : 390) + (i % 4), null, null, null],
          ...(i >= 25 ? ([[1, 7 + (i % 2), null, null, null]] as Commit["results"]) : []),
        ],
      }),
    );
    const unmarked = buildPageModel(history(commits), { title: "t" }).series[0];
    expect(unmarked?.changes.map((c) => c.index)).toEqual([20, 45]);
    expect(unmarked?.breaks).toEqual([]);

    const marked = history(commits);
    marked.breaks = [
      {
        benchmark: "*",
        from: commits[20]!.sha,
        reason: "criterion 0.6",
        recorded_at: "2026-03-01T00:00:00Z",
      },
      {
        benchmark: "ear?y",
        from: commits[20]!.sha,
        reason: "new input",
        recorded_at: "2026-03-01T00:00:00Z",
      },
      {
        benchmark: "late",
        from: commits[0]!.sha,
        reason: "before it ran",
        recorded_at: "2026-03-01T00:00:00Z",
      },
    ];
    const model = buildPageModel(marked, { title: "t" });
    const [early, late] = model.series;
    // The regression at 45, measured against the new baseline alone (301, not a level pulled
    // down by the old 100s), and no change point at the method change.
    expect(early?.changes).toEqual([
      { index: 45, before: 301, after: 391, step: expect.closeTo(0.299, 3) as number },
    ]);
    expect(early?.breaks).toEqual([{ index: 20, reason: "criterion 0.6 · new input" }]);
    expect(late?.breaks).toEqual([]);
    expect(model.breaks).toEqual([
      { benchmark: "*", index: 20, reason: "criterion 0.6", series: 3 },
      { benchmark: "ear?y", index: 20, reason: "new input", series: 1 },
      { benchmark: "late", index: 0, reason: "before it ran", series: 1 },
    ]);
  });

  it("makes every string display-safe as the comment does: bidi controls visible, zero-width gone", () => {
    // Every bidi control the comment neutralises, and the zero-width characters it removes.
    const bidi = "\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C";
    const hidden = "\u200B\u200C\u200D\u2060\uFEFF";
    const hostile = (text: string): string => `${text}${bidi}${hidden}\u001b[2J\tend`;
    const shown = (text: string): string => `${text}${"\uFFFD".repeat(12)}\uFFFD[2J end`;
    const env = (kernel: string): NonNullable<Commit["environment"]> => ({ kernel });
    const commits = [
      commit(0, {
        message: hostile("fix"),
        author: hostile("Ada"),
        url: "https://github.com/o/r/commit/\u202Eabc",
        results: [[0, 1, null, null, null]],
        extras: [[0, hostile("± 4"), null]],
        fingerprint: "a".repeat(16),
        environment: env("6.1"),
      }),
      commit(1, { fingerprint: "b".repeat(16), environment: env(hostile("6.8")) }),
    ];
    const h = history(commits);
    h.series[0] = { ...h.series[0]!, suite: hostile("suite"), id: hostile("name"), unit: "ns" };
    h.series[2] = { ...h.series[2]!, tool: hostile("cargo") };
    h.breaks = [
      {
        benchmark: "*",
        from: commits[1]!.sha,
        reason: hostile("why"),
        recorded_at: "2026-03-01T00:00:00Z",
      },
    ];
    const model = buildPageModel(h, { title: hostile("title") });

    expect(model.title).toBe(shown("title"));
    expect(model.commits.message[0]).toBe(shown("fix"));
    expect(model.commits.author[0]).toBe(shown("Ada"));
    expect(model.series[0]).toMatchObject({ suite: shown("suite"), id: shown("name") });
    expect(model.series[0]?.notes).toEqual([shown("± 4")]);
    expect(model.series[2]?.importedFrom).toBe(shown("cargo"));
    // A hand-edited history.json can hold anything its schema misses: the page is safe anyway.
    expect(model.breaks[0]?.reason).toBe(shown("why"));
    expect(model.environmentChanges[0]?.fields).toEqual([
      { name: "kernel", before: "6.1", after: shown("6.8") },
    ]);
    // The link keeps its target, percent-encoded by the URL parser rather than altered.
    expect(model.commits.url[0]).toBe("https://github.com/o/r/commit/%E2%80%AEabc");
    // Nothing invisible or reordering anywhere in the data the page receives.
    expect(JSON.stringify(model)).not.toMatch(
      /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF\p{Cc}]/u,
    );
  });

  it("builds an empty page for an empty history", () => {
    const model = buildPageModel(history([]), { title: "t" });
    expect(model.commits.sha).toEqual([]);
    expect(model.series.map((s) => s.median)).toEqual([[], [], []]);
    expect(model.latest).toBeNull();
  });

  it("opens on the latest commit: what moved there, regressions first, counts under their lead", () => {
    const series: BenchHistory["series"] = [
      { suite: "s", id: "fast", unit: "ns", direction: "smaller_is_better" },
      { suite: "s", id: "slow", unit: "ns", direction: "smaller_is_better" },
      { suite: "s", id: "slow [l1_hits]", unit: "hits", direction: "smaller_is_better" },
      { suite: "s", id: "flat", unit: "ns", direction: "smaller_is_better" },
    ];
    const point = (s: number, v: number): Commit["results"][number] => [
      s,
      v,
      v * 0.99,
      v * 1.01,
      null,
    ];
    const commits = [
      commit(0, { results: [point(0, 100), point(1, 100), point(2, 50), point(3, 100)] }),
      commit(1, {
        verdict: "fail",
        results: [point(0, 80), point(1, 300), point(2, 52), point(3, 100.5)],
      }),
    ];
    const model = buildPageModel({ schema_version: 1, series, commits }, { title: "t" });
    expect(model.series.map((s) => s.lead)).toEqual([null, null, 1, null]);
    expect(model.series[1]?.latestStep).toMatchObject({ before: 100, after: 300, worse: true });
    expect(model.series[0]?.latestStep).toMatchObject({ worse: false });
    expect(model.series[3]?.latestStep).toBeNull();
    expect(model.latest).toEqual({ index: 1, changed: [1, 0] });
  });
});

describe("scriptAssignment", () => {
  it("escapes what could end the script or a line, and keeps the value", () => {
    const value = { name: "</script><!-- & \u2028\u2029 >" };
    const script = scriptAssignment("BENCHGATE_DATA", value);
    expect(script).not.toMatch(/[<>&\u2028\u2029]/);
    expect(script.startsWith("window.BENCHGATE_DATA = ")).toBe(true);
    const json = script.slice("window.BENCHGATE_DATA = ".length, -2);
    expect(JSON.parse(json)).toEqual(value);
    expect(() => scriptAssignment("x; alert(1)", value)).toThrow(RangeError);
  });
});
