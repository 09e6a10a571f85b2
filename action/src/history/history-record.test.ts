import { describe, expect, it } from "vitest";
import { parseBudgets } from "../budgets/parse-budget.ts";
import { makeEntry, makeReport } from "../../test/support/report-factory.ts";
import { buildHistoryRecord, budgetLine, subjectLine, type CommitInfo } from "./history-record.ts";

const COMMIT: CommitInfo = {
  sha: "a".repeat(40),
  date: "2025-03-04T05:06:07+02:00",
  message: "speed up the parser\n\nLong body that is not kept.",
  author: "Ada Lovelace",
  url: "https://github.com/o/r/commit/" + "a".repeat(40),
  ref: "refs/heads/main",
};
const AT = { recordedAt: "2025-03-04T06:00:00.000Z" };

describe("buildHistoryRecord", () => {
  it("takes the head median, an order-statistic CI of the rounds and the commit's metadata", () => {
    const report = makeReport({
      benchmarks: [
        makeEntry({
          id: "parse/small",
          suite: "parse",
          head: { value: 12, per_round: [14, 10, 12, 11, 13] },
        }),
      ],
      environment: {
        mismatch: false,
        differences: [],
        warnings: [],
        head: { fingerprint: "0123456789abcdef", cpu_model: "Test CPU", logical_cpus: 8 },
      },
    });
    const record = buildHistoryRecord(report, COMMIT, AT);
    expect(record.commit).toEqual({
      sha: COMMIT.sha,
      ref: "refs/heads/main",
      date: COMMIT.date,
      message: "speed up the parser",
      author: "Ada Lovelace",
      url: COMMIT.url,
      recorded_at: AT.recordedAt,
      fingerprint: "0123456789abcdef",
      environment: { fingerprint: "0123456789abcdef", cpu_model: "Test CPU", logical_cpus: 8 },
      rounds: 5,
      verdict: "pass",
    });
    expect(record.results).toEqual([
      {
        series: {
          suite: "parse",
          id: "parse/small",
          unit: "ns",
          direction: "smaller_is_better",
          origin: "benchgate",
        },
        median: 12,
        // Five rounds: [min, max], 93.75 % coverage (docs/history.md).
        ciLow: 10,
        ciHigh: 14,
        budget: null,
      },
    ]);
  });

  it("gives null bounds below three rounds and skips benchmarks missing on head", () => {
    const report = makeReport({
      benchmarks: [
        makeEntry({ id: "two", head: { value: 5, per_round: [4, 6] } }),
        makeEntry({ id: "gone", head: null, verdict: "missing" }),
      ],
    });
    const { results } = buildHistoryRecord(report, COMMIT, AT);
    expect(results.map((r) => [r.series.id, r.median, r.ciLow, r.ciHigh])).toEqual([
      ["two", 5, null, null],
    ]);
  });

  it("leaves out a fingerprint that is not one", () => {
    const report = makeReport({
      environment: {
        mismatch: false,
        differences: [],
        warnings: [],
        head: { fingerprint: "not-hex" },
      },
    });
    expect(buildHistoryRecord(report, COMMIT, AT).commit.fingerprint).toBeUndefined();
  });

  it("refuses a malformed SHA, date or URL and names the field", () => {
    const report = makeReport();
    expect(() => buildHistoryRecord(report, { ...COMMIT, sha: "ABC" }, AT)).toThrow(/commit sha/);
    expect(() => buildHistoryRecord(report, { ...COMMIT, date: "yesterday" }, AT)).toThrow(
      /commit date/,
    );
    expect(() => buildHistoryRecord(report, { ...COMMIT, url: "javascript:alert(1)" }, AT)).toThrow(
      /commit url/,
    );
  });

  it("keeps only a clipped first line of the message, without control characters", () => {
    expect(subjectLine("fix\u0007 bell\r\nbody")).toBe("fix bell");
    const long = subjectLine("x".repeat(5000));
    expect(Array.from(long)).toHaveLength(1024);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("budgetLine", () => {
  const rules = parseBudgets([
    { benchmark: "parse/*", median: "< 20ns", p95: "< 5ns" },
    { benchmark: "parse/small", p50: "<= 15ns" },
    { benchmark: "rate/*", median: "> 100 ops/s" },
    { benchmark: "rate/*", p50: "> 150 ops/s" },
    { benchmark: "time/*", median: "> 100 B/s" },
  ]);

  it("is the tightest median/p50 limit in the series' unit", () => {
    expect(budgetLine(makeEntry({ id: "parse/small" }), rules)).toBe(15);
    expect(budgetLine(makeEntry({ id: "parse/large" }), rules)).toBe(20);
    expect(
      budgetLine(makeEntry({ id: "rate/x", unit: "ops/s", direction: "bigger_is_better" }), rules),
    ).toBe(150);
  });

  it("is null without a matching rule, for other statistics, and across units", () => {
    expect(budgetLine(makeEntry({ id: "other" }), rules)).toBeNull();
    expect(budgetLine(makeEntry({ id: "time/x" }), rules)).toBeNull();
    expect(
      budgetLine(makeEntry({ id: "p95only" }), parseBudgets([{ benchmark: "*", p95: "< 1ms" }])),
    ).toBeNull();
  });

  it("reaches the record", () => {
    const report = makeReport({ benchmarks: [makeEntry({ id: "parse/small" })] });
    expect(buildHistoryRecord(report, COMMIT, { ...AT, budgets: rules }).results[0]?.budget).toBe(
      15,
    );
  });
});
