import { readFileSync } from "node:fs";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { BenchHistory } from "../schemas/history.gen.ts";
import { validateHistory } from "../schemas/validate-document.ts";
import { GAB_SCRIPT_PREFIX } from "./gab-data-js.ts";
import { exportGabData, exportGabDataJs } from "./gab-export.ts";
import { importGabDataText } from "./gab-import.ts";

const FIXTURES = new URL("../../test/fixtures/gab-data-js/", import.meta.url);
const REAL = [
  "shogi_core-cargo.data.js",
  "structlog-sentry-logger-pytest-reruns.data.js",
  "opentelemetry-python-pytest-two-suites.data.js",
] as const;
const SHA1 = "1".repeat(40);
const SHA2 = "2".repeat(40);

/** What gab's page sees: data.js run as a script with a `window` object. */
function runAsPage(text: string): unknown {
  const context = { window: {} as Record<string, unknown> };
  runInNewContext(text, context, { timeout: 1000 });
  return context.window["BENCHMARK_DATA"];
}

/** benchgate's own history: two commits, a CI and a budget, two directions in one suite. */
function ownHistory(): BenchHistory {
  return validateHistory(
    {
      schema_version: 1,
      updated_at: "2024-03-01T12:00:00Z",
      series: [
        { suite: "micro", id: "parse/small", unit: "ns", direction: "smaller_is_better" },
        { suite: "micro", id: "throughput", unit: "B/s", direction: "bigger_is_better" },
      ],
      commits: [
        {
          sha: SHA1,
          date: "2024-02-28T10:00:00+01:00",
          message: "speed up parse",
          author: "Dev One",
          url: `https://github.com/o/r/commit/${SHA1}`,
          recorded_at: "2024-02-28T10:05:00.000Z",
          rounds: 5,
          results: [
            [0, 120.5, 118, 123, 200],
            [1, 5e8, null, null, null],
          ],
        },
        {
          sha: SHA2,
          date: "2024-02-29T10:00:00Z",
          message: "next",
          author: "Dev Two",
          recorded_at: "2024-02-29T10:05:00.000Z",
          results: [[0, 121, null, null, null]],
        },
      ],
    },
    "own",
  );
}

describe("exportGabDataJs", () => {
  it("writes gab's format: its loadDataJs and its page read the same object", () => {
    const history = ownHistory();
    const text = exportGabDataJs(history);
    expect(text.startsWith(GAB_SCRIPT_PREFIX + "{\n")).toBe(true);
    const expected = exportGabData(history);
    // gab's loadDataJs: slice off the prefix, JSON.parse the rest.
    expect(JSON.parse(text.slice(GAB_SCRIPT_PREFIX.length))).toEqual(expected);
    expect(runAsPage(text)).toEqual(expected);
  });

  it("maps benchgate's series to custom tools by direction, CI to ± half-width", () => {
    const data = exportGabData(ownHistory());
    expect(data.repoUrl).toBe("https://github.com/o/r");
    expect(data.lastUpdate).toBe(Date.parse("2024-03-01T12:00:00Z"));
    const entries = data.entries["micro"] ?? [];
    expect(entries.map((e) => [e.commit.id, e.tool, e.benches.map((b) => b.name)])).toEqual([
      [SHA1, "customSmallerIsBetter", ["parse/small"]],
      [SHA1, "customBiggerIsBetter", ["throughput"]],
      [SHA2, "customSmallerIsBetter", ["parse/small"]],
    ]);
    expect(entries[0]).toEqual({
      commit: {
        author: { name: "Dev One", username: "Dev One" },
        committer: { name: "Dev One", username: "Dev One" },
        id: SHA1,
        message: "speed up parse",
        timestamp: "2024-02-28T10:00:00+01:00",
        url: `https://github.com/o/r/commit/${SHA1}`,
      },
      date: Date.parse("2024-02-28T10:05:00.000Z"),
      tool: "customSmallerIsBetter",
      benches: [
        {
          name: "parse/small",
          value: 120.5,
          unit: "ns",
          range: "± 2.5",
          extra: "CI: 118 – 123 ns\nbudget: 200 ns\nrounds: 5",
        },
      ],
    });
    expect(entries[1]?.benches[0]).toEqual({
      name: "throughput",
      value: 5e8,
      unit: "B/s",
      extra: "rounds: 5",
    });
    expect(entries[2]?.commit.url).toBeUndefined();
  });

  it("keeps the text written by script-injection attempts as data", () => {
    const hostile = `</script><script>globalThis.pwned = 1</script>"]}; globalThis.pwned = 1; //\u2028`;
    const history = ownHistory();
    history.series[0] = { ...history.series[0]!, suite: hostile, id: hostile };
    history.commits[0] = { ...history.commits[0]!, message: hostile, author: hostile };
    const text = exportGabDataJs(validateHistory(history, "hostile"));
    expect(text).not.toContain("<");
    expect(text).not.toContain("\u2028");
    const page = runAsPage(text) as { entries: Record<string, { benches: { name: string }[] }[]> };
    expect(Object.keys(page.entries)).toContain(hostile);
    expect(page.entries[hostile]?.[0]?.benches[0]?.name).toBe(hostile);
    expect((globalThis as Record<string, unknown>)["pwned"]).toBeUndefined();
  });

  it("refuses a suite named __proto__, which a browser would turn into a prototype", () => {
    const history = ownHistory();
    history.series[0] = { ...history.series[0]!, suite: "__proto__" };
    expect(() => exportGabDataJs(history)).toThrow(/"__proto__" cannot be written to data\.js/);
  });

  it("takes repoUrl and lastUpdate when given, and refuses a non-https repoUrl", () => {
    const data = exportGabData(ownHistory(), { repoUrl: "https://example.org/x", lastUpdate: 7 });
    expect([data.repoUrl, data.lastUpdate]).toEqual(["https://example.org/x", 7]);
    expect(() => exportGabData(ownHistory(), { repoUrl: "javascript:alert(1)" })).toThrow(/https/);
  });

  it("writes an empty history as gab's empty document", () => {
    expect(exportGabData({ schema_version: 1, series: [], commits: [] })).toEqual({
      lastUpdate: 0,
      repoUrl: "",
      entries: {},
    });
  });
});

describe("round trip: import(real data.js) → export → import", () => {
  it.each(REAL)("%s keeps every value, range, extra and rerun", (name) => {
    const text = readFileSync(new URL(name, FIXTURES), "utf8");
    const first = importGabDataText(text, name);
    const exported = exportGabDataJs(first.history);
    const second = importGabDataText(exported, "exported data.js");
    expect(second.history.series).toEqual(first.history.series);
    expect(second.history.commits).toEqual(first.history.commits);
    expect(second.counts).toMatchObject({
      points: first.counts.values,
      values: first.counts.values,
      reruns: first.counts.reruns,
    });
    expect(second.warnings).toEqual([]);
    // And once more: export(import(export(x))) is byte-identical.
    expect(exportGabDataJs(second.history)).toBe(exported);
  });

  it.each(REAL)("%s: the exported file has the original's entries, values and texts", (name) => {
    type Page = {
      entries: Record<
        string,
        { commit: { id: string }; date: number; tool: string; benches: object[] }[]
      >;
    };
    const text = readFileSync(new URL(name, FIXTURES), "utf8");
    const original = runAsPage(text) as Page;
    const { history, counts } = importGabDataText(text, name);
    const exported = runAsPage(exportGabDataJs(history)) as Page;
    // A run joining suites keeps one time (its latest entry's), so only other runs keep theirs.
    const shape = (d: Page): unknown =>
      Object.entries(d.entries).map(([suite, runs]) => [
        suite,
        runs.map((r) => [r.commit.id, counts.collapsedDates === 0 ? r.date : 0, r.tool, r.benches]),
      ]);
    expect(shape(exported)).toEqual(shape(original));
  });
});

describe("reruns", () => {
  /** SHA1 measured at 10:00 and again at 12:00, after SHA2 (11:00); benchgate's rounds. */
  function rerunHistory(): BenchHistory {
    const history = ownHistory();
    const [first, second] = history.commits;
    history.commits[0] = {
      ...first!,
      recorded_at: "2024-02-28T12:00:00.000Z",
      reruns: [{ recorded_at: "2024-02-28T10:00:00.000Z", results: [[0, 130, null, null, null]] }],
    };
    history.commits[1] = { ...second!, recorded_at: "2024-02-28T11:00:00.000Z" };
    return validateHistory(history, "reruns");
  }

  it("writes each rerun as its own entry, every suite's entries in time order", () => {
    const entries = exportGabData(rerunHistory()).entries["micro"] ?? [];
    expect(entries.map((e) => [e.commit.id, new Date(e.date).toISOString(), e.tool])).toEqual([
      [SHA1, "2024-02-28T10:00:00.000Z", "customSmallerIsBetter"],
      [SHA2, "2024-02-28T11:00:00.000Z", "customSmallerIsBetter"],
      [SHA1, "2024-02-28T12:00:00.000Z", "customSmallerIsBetter"],
      [SHA1, "2024-02-28T12:00:00.000Z", "customBiggerIsBetter"],
    ]);
    // The commit's rounds describe its results, not the earlier run.
    expect(entries[0]?.benches).toEqual([{ name: "parse/small", value: 130, unit: "ns" }]);
    expect(entries[2]?.benches[0]?.extra).toMatch(/rounds: 5$/);
  });

  it("takes lastUpdate from the latest run when the history has no updated_at", () => {
    const history = rerunHistory();
    delete history.updated_at;
    history.commits[0] = { ...history.commits[0]!, recorded_at: "2024-02-28T09:00:00.000Z" };
    history.commits[0].reruns = [
      { recorded_at: "2024-02-28T13:00:00.000Z", results: [[0, 1, null, null, null]] },
    ];
    expect(exportGabData(history).lastUpdate).toBe(Date.parse("2024-02-28T13:00:00.000Z"));
  });
});
